/// Configuration texts shared by the loader and `check` tests.
enum ConfigFixtures {
    /// The example configuration of DESIGN.md ("Configuration (YAML, version: 1)"), verbatim.
    /// ``CheckCommandTests`` compares it with DESIGN.md when the shared folder is beside the repository.
    static let designExample = #"""
        version: 1
        workers: auto                      # or a number; one event loop per worker
        listeners:
          - address: 127.0.0.1:8080        # host:port; port 0 picks a free port and logs it
          - address: 0.0.0.0:8443
            tls: { certificate: tls/server.crt, key: tls/server.key }
        admin: { address: 127.0.0.1:9090 } # /metrics /healthz /readyz
        upstreams:
          uploads:
            url: https://uploads.internal:8443
            tls:
              ca: tls/upstream-ca.pem      # omitted: the system trust store
              server_name: uploads.internal   # omitted: host of url; used for SNI and verification
              verify: true                 # default true
              client_certificate: tls/client.crt   # optional mTLS
              client_key: tls/client.key
            connect_timeout: 5s
            response_timeout: 60s
            max_idle_connections: 32
        limits:                            # defaults for every route; a route may override any of them
          header_bytes: 16KiB
          body_bytes: 1GiB
          parts: 1000
          part_header_bytes: 8KiB
          field_bytes: 1MiB                # a part without filename
          header_timeout: 10s
          idle_timeout: 60s
        routes:                            # first match wins
          - name: avatars
            match: { host: "*", path_prefix: /avatars, methods: [POST, PUT] }
            upstream: uploads
            forward: stream                # stream | spool
            multipart: rewrite             # rewrite (default) | passthrough (relay multipart bodies untouched)
            spool_memory: 8MiB
            report_only: false
            strict: { preamble: normalize, epilogue: normalize }   # flag -> reject | normalize | allow
            default: pass                  # parts no rule matched: pass | strip | reject
            other_bodies: reject           # non-multipart bodies on a route with rules: reject (415) | pass
            charsets: [utf-8, us-ascii]    # allowed charset= on text parts (utf-7 & co are WAF bypasses)
            unsafe_filenames: sanitize     # '/', '\', '..', drive letters, CTL: sanitize | reject | allow
            rules:                         # in order; strip and reject end a part's evaluation
              - name: drop-internal
                match: { field: "internal_*" }             # globs; also filename, has_filename,
                strip: true                                #   declared_type, sniffed_type, extension
              - name: avatar-image
                match: { field: avatar, has_filename: true }
                sniff:
                  allow: [image/png, image/jpeg, image/webp]
                  on_mismatch: reject      # reject | strip
                  set_content_type: true   # forward the sniffed type, not the declared one
                  extension_must_match: true
                  validate: true           # walk PNG/JPEG/GIF/WebP/PDF structure while streaming: polyglots fail
                max_bytes: 5MiB
                on_exceed: reject          # reject | truncate | strip
                rename: { filename: "{uuid}{ext}" }        # also field: "..."; {filename} (sanitised original),
                                                           #   {stem} {ext} {field} {uuid} {index}
              - name: no-executables
                match: { sniffed_type: [application/x-msdownload, application/x-executable, application/x-mach-binary] }
                reject: { status: 415 }
        """#
}
