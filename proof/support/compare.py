"""Judging one request: what each backend read against partgate's audit record, and the backends together."""

import collections

FIELDS = ("name", "filename", "content_type", "size", "sha256")


def forwarded_parts(audits):
    """The parts partgate says it forwarded, in body order, as the backends describe parts."""
    parts = []
    for record in sorted(audits, key=lambda record: record["index"]):
        if "forwarded_name" not in record:
            continue
        parts.append({
            "name": record["forwarded_name"],
            "filename": record.get("forwarded_filename"),
            "content_type": record.get("forwarded_type"),
            "size": record["forwarded_size"],
            "sha256": record.get("sha256"),
        })
    return parts


def differences(expected, seen):
    """Human-readable differences between two part lists (empty when they agree field by field)."""
    out = []
    if len(expected) != len(seen):
        out.append("part count %d != %d" % (len(expected), len(seen)))
    for index, (left, right) in enumerate(zip(expected, seen)):
        for field in FIELDS:
            if left.get(field) != right.get(field):
                out.append("part %d %s: %r != %r" % (index, field, left.get(field), right.get(field)))
    return out


class Outcome:
    """What happened to one request on one route: refused by partgate (flag), or forwarded and read."""

    def __init__(self, backend, response, end_line, audits):
        self.backend = backend
        self.response = response
        self.refused = end_line.get("msg") == "refused"
        self.flag = end_line.get("flag") if self.refused else None
        self.status = response.status
        self.audit_parts = forwarded_parts(audits)
        self.problems = []
        body = response.json() if response.status else None
        self.parts = None
        self.not_multipart = False
        if self.refused:
            problem = body or {}
            if "problem+json" not in response.content_type or problem.get("flag") != self.flag:
                self.problems.append("refusal not answered as problem+json with flag %r: %r %r"
                                     % (self.flag, response.status, response.body[:200]))
            return
        self.not_multipart = (not audits and isinstance(body, dict) and body.get("backend") is not None
                              and body.get("error") == "not multipart")
        if self.not_multipart:
            return  # relayed untouched (no body, or not multipart/form-data): nothing was re-encoded
        if response.status != 200 or not isinstance(body, dict) or "parts" not in body:
            self.problems.append("forwarded body not read by %s: HTTP %s %r" % (backend, response.status,
                                                                                  response.body[:300]))
            return
        self.parts = body["parts"]
        for difference in differences(self.audit_parts, self.parts):
            self.problems.append("%s vs partgate audit: %s" % (backend, difference))

    def key(self):
        if self.refused:
            return ("refused", self.flag)
        return ("relayed, not multipart",) if self.not_multipart else ("forwarded",)


class Tally:
    """Counts over a set of requests, and the differentials found, for the report."""

    def __init__(self, name):
        self.name = name
        self.sent = 0
        self.forwarded = 0
        self.refused = collections.Counter()
        self.not_multipart = 0
        self.parts_compared = 0
        self.differentials = []

    def judge(self, request, outcomes):
        """Adds one request (its outcome on every route); returns its differentials."""
        self.sent += 1
        found = []
        for outcome in outcomes:
            found += outcome.problems
        keys = {outcome.key() for outcome in outcomes}
        if len(keys) > 1:
            found.append("routes disagree: %s" % {o.backend: o.key() for o in outcomes})
        elif keys == {("forwarded",)}:
            first = outcomes[0]
            for other in outcomes[1:]:
                if first.parts is not None and other.parts is not None:
                    for difference in differences(first.parts, other.parts):
                        found.append("%s vs %s: %s" % (first.backend, other.backend, difference))
            if not found:
                self.forwarded += 1
                self.parts_compared += len(first.parts) * len(outcomes)
        elif keys == {("relayed, not multipart",)}:
            self.not_multipart += 1
        else:
            self.refused[next(iter(keys))[1]] += 1
        if found:
            self.differentials.append((request.label, found))
        return found

    def summary(self):
        return {
            "set": self.name, "sent": self.sent, "forwarded": self.forwarded, "refused": dict(self.refused),
            "relayed_not_multipart": self.not_multipart,
            "parts_compared": self.parts_compared, "differentials": len(self.differentials),
        }

    def report(self):
        lines = ["%s: %d requests sent (x3 routes), %d forwarded and read alike by all three backends "
                 "(%d part readings compared), %d refused, %d relayed untouched (not multipart), %d differentials"
                 % (self.name, self.sent, self.forwarded, self.parts_compared, sum(self.refused.values()),
                    self.not_multipart,
                    len(self.differentials))]
        for flag, count in sorted(self.refused.items(), key=lambda item: (-item[1], item[0])):
            lines.append("  refused %-28s %d" % (flag, count))
        for label, found in self.differentials:
            lines.append("  DIFFERENTIAL %s" % label)
            lines += ["    " + line for line in found[:12]]
        return "\n".join(lines)
