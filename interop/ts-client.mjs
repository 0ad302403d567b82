// ts-client.mjs: an interop probe that talks to a skills-mcp server with the official
// TypeScript SDK (v1.x, pinned in package.json), the client most hosts embed.
//
// Usage:
//   node ts-client.mjs --url URL                 streamable HTTP
//   node ts-client.mjs --stdio -- CMD [ARGS...]  spawn CMD and speak over its stdin/stdout
//   options: --timeout MS (per request, default 30000)
//
// It checks that the server declares capabilities.extensions["io.modelcontextprotocol/skills"],
// pages through skills/list, reads the first skill's SKILL.md with resources/read, and prints
// one JSON line {"skills": N, "firstUri": "...", "readBytes": B}, where B is the UTF-8 byte
// length of the text read (or the decoded length of a blob). It exits 0 on success, 1 with a
// message on stderr on any failure, and 2 on a usage error.
//
// The v1 SDK speaks protocol revisions up to 2025-11-25 (initialize handshake); it has no
// skills/* helpers, so the custom method goes through the generic client.request with the
// SDK's permissive ResultSchema.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ResultSchema } from '@modelcontextprotocol/sdk/types.js';

const EXTENSION = 'io.modelcontextprotocol/skills';
const MAX_PAGES = 10000;

function usage(msg) {
  if (msg) console.error(`ts-client: ${msg}`);
  console.error('usage: ts-client.mjs --url URL | --stdio -- CMD [ARGS...]  [--timeout MS]');
  process.exit(2);
}

function parseArgs(argv) {
  const opts = { url: null, cmd: null, timeout: 30000 };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--url') {
      if (i + 1 >= argv.length) usage('--url needs a value');
      opts.url = argv[++i];
    } else if (a === '--timeout') {
      opts.timeout = Number(argv[++i]);
      if (!Number.isInteger(opts.timeout) || opts.timeout <= 0) usage('--timeout needs a positive integer');
    } else if (a === '--stdio') {
      if (argv[i + 1] !== '--' || i + 2 >= argv.length) usage('--stdio needs -- CMD [ARGS...]');
      opts.cmd = argv.slice(i + 2);
      break;
    } else if (a === '-h' || a === '--help') {
      usage();
    } else {
      usage(`unknown argument ${JSON.stringify(a)}`);
    }
  }
  if ((opts.url === null) === (opts.cmd === null)) usage('give exactly one of --url or --stdio');
  return opts;
}

function transportFor(opts) {
  if (opts.url !== null) return new StreamableHTTPClientTransport(new URL(opts.url));
  const [command, ...args] = opts.cmd;
  // Pass the whole environment: the test harness may configure the server through it.
  return new StdioClientTransport({ command, args, env: process.env, stderr: 'inherit' });
}

async function main() {
  const opts = parseArgs(process.argv.slice(2));
  const client = new Client({ name: 'skills-mcp-interop-ts-client', version: '0.0.0' });
  const reqOpts = { timeout: opts.timeout };
  await client.connect(transportFor(opts), reqOpts);
  try {
    const caps = client.getServerCapabilities() ?? {};
    if (!caps.extensions || !Object.hasOwn(caps.extensions, EXTENSION)) {
      throw new Error(`server does not declare capabilities.extensions[${JSON.stringify(EXTENSION)}]`);
    }

    const skills = [];
    let cursor;
    for (let page = 0; ; page++) {
      if (page >= MAX_PAGES) throw new Error(`skills/list: more than ${MAX_PAGES} pages`);
      const params = cursor === undefined ? {} : { cursor };
      const res = await client.request({ method: 'skills/list', params }, ResultSchema, reqOpts);
      if (!Array.isArray(res.skills)) throw new Error('skills/list: result has no skills array');
      skills.push(...res.skills);
      if (res.nextCursor === undefined || res.nextCursor === null) break;
      if (typeof res.nextCursor !== 'string' || res.nextCursor === cursor) {
        throw new Error(`skills/list: bad nextCursor ${JSON.stringify(res.nextCursor)}`);
      }
      cursor = res.nextCursor;
    }
    if (skills.length === 0) throw new Error('skills/list: server lists no skills');

    const firstUri = skills[0]?.uri;
    if (typeof firstUri !== 'string' || !firstUri.endsWith('/SKILL.md')) {
      throw new Error(`skills/list: first entry has no SKILL.md uri: ${JSON.stringify(skills[0])}`);
    }
    const read = await client.readResource({ uri: firstUri }, reqOpts);
    const content = read.contents?.[0];
    if (!content) throw new Error(`resources/read ${firstUri}: no contents`);
    let readBytes;
    if (typeof content.text === 'string') readBytes = Buffer.byteLength(content.text, 'utf8');
    else if (typeof content.blob === 'string') readBytes = Buffer.from(content.blob, 'base64').length;
    else throw new Error(`resources/read ${firstUri}: contents carry neither text nor blob`);

    console.log(JSON.stringify({ skills: skills.length, firstUri, readBytes }));
  } finally {
    await client.close();
  }
}

// Exit explicitly so that an open socket or a child process cannot keep the probe alive.
main().then(
  () => process.exit(0),
  (err) => {
    console.error(`ts-client: ${err instanceof Error ? err.message : String(err)}`);
    process.exit(1);
  },
);
