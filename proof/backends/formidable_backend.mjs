// Backend 3: a node https server whose multipart bodies are read by formidable (Debian node-formidable).
//
// `form.onPart` is formidable's documented hook for handling parts yourself: formidable's own multipart
// parser and header handling (name, originalFilename with its %22 and &#NNNN; decoding, mimetype) run as
// always; the hook keeps each part's raw bytes and the order of parts instead of writing files to disk.
//
// Usage: node formidable_backend.mjs CERT KEY. Binds 127.0.0.1:0 and prints `PORT n`.

import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:https';
import { createRequire } from 'node:module';

// node-formidable installs under /usr/share/nodejs (Debian); NODE_PATH reaches it through require.
const { formidable } = createRequire(import.meta.url)('formidable');

const [certificate, key] = process.argv.slice(2);

function answer(response, status, body) {
  const text = JSON.stringify({ backend: 'formidable', ...body });
  response.writeHead(status, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(text) });
  response.end(text);
}

const server = createServer({ cert: readFileSync(certificate), key: readFileSync(key) }, (request, response) => {
  if (!/^multipart\/form-data/i.test(request.headers['content-type'] || '')) {
    request.resume();
    answer(response, 415, { error: 'not multipart' });
    return;
  }
  const form = formidable({ maxFields: Infinity, maxFiles: Infinity, allowEmptyFiles: true, minFileSize: 0 });
  const parts = [];
  let finished = false;
  form.onPart = (part) => {
    const entry = { name: part.name, filename: part.originalFilename, content_type: part.mimetype };
    const hash = createHash('sha256');
    let size = 0;
    parts.push(entry);
    part.on('data', (buffer) => {
      size += buffer.length;
      hash.update(buffer);
    });
    part.on('end', () => {
      entry.size = size;
      entry.sha256 = hash.digest('hex');
    });
  };
  form.parse(request, (error) => {
    if (finished) return;
    finished = true;
    if (error) {
      answer(response, 400, { error: String(error.message || error) });
      return;
    }
    const incomplete = parts.find((part) => part.sha256 === undefined);
    if (incomplete) {
      answer(response, 400, { error: 'a part did not end: ' + incomplete.name });
      return;
    }
    answer(response, 200, { parts, transfer_encoding: request.headers['transfer-encoding'] || null });
  });
});

server.keepAliveTimeout = 60000;
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`PORT ${server.address().port}\n`);
});
