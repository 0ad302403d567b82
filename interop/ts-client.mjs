// ts-client.mjs: an interop probe that talks to a skills-mcp server with the official
// TypeScript SDK (v1.x, pinned in package.json), the client most hosts embed.
//
// Usage:
//   node ts-client.mjs --url URL                 streamable HTTP
//   node ts-client.mjs --stdio -- CMD [ARGS...]  spawn CMD and speak over its stdin/stdout
//   options: --timeout MS (per request, default 30000)
//            --all  also read every file of every skill and call every other method the server
//                   offers (see below)
//
// It checks that the server declares capabilities.extensions["io.modelcontextprotocol/skills"],
// pages through skills/list, reads the first skill's SKILL.md with resources/read, and prints
// one JSON line {"skills": N, "firstUri": "...", "readBytes": B}, where B is the UTF-8 byte
// length of the text read (or the decoded length of a blob). It exits 0 on success, 1 with a
// message on stderr on any failure, and 2 on a usage error.
//
// With --all it then reads every file of every listed skill (resources/read), gets every skill
// (skills/get), pages through resources/list, lists the resource templates, tools and prompts,
// calls every tool once with its required arguments (skill: the first skill, path: its last
// file, any other string: "skill") and gets every prompt the same way. Each standard result is
// checked by the SDK against its own schema (zod), and a tool's structuredContent against the
// tool's outputSchema, so any result a strict TypeScript host would reject fails the probe.
// It prints {"skills": N, "files": F, "emptyFiles": E, "tools": T, "prompts": P}.
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
  console.error('usage: ts-client.mjs [--timeout MS] [--all] --url URL | --stdio -- CMD [ARGS...]');
  process.exit(2);
}

function parseArgs(argv) {
  const opts = { url: null, cmd: null, timeout: 30000, all: false };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--url') {
      if (i + 1 >= argv.length) usage('--url needs a value');
      opts.url = argv[++i];
    } else if (a === '--timeout') {
      opts.timeout = Number(argv[++i]);
      if (!Number.isInteger(opts.timeout) || opts.timeout <= 0) usage('--timeout needs a positive integer');
    } else if (a === '--all') {
      opts.all = true;
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
  if (opts.url !== null) {
    // SKILLS_MCP_BEARER: a bearer token for a server behind authorization.
    const bearer = process.env.SKILLS_MCP_BEARER;
    const init = bearer ? { requestInit: { headers: { Authorization: `Bearer ${bearer}` } } } : undefined;
    return new StreamableHTTPClientTransport(new URL(opts.url), init);
  }
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

    if (opts.all) console.log(JSON.stringify(await readEverything(client, skills, reqOpts)));
    else console.log(JSON.stringify({ skills: skills.length, firstUri, readBytes }));
  } finally {
    await client.close();
  }
}

// readEverything is the --all mode: see the head of this file.
async function readEverything(client, skills, reqOpts) {
  let files = 0;
  let emptyFiles = 0;
  for (const skill of skills) {
    await client.request({ method: 'skills/get', params: { uri: skill.uri } }, ResultSchema, reqOpts);
    if (!Array.isArray(skill.resources)) throw new Error(`skills/list: ${skill.uri} has no resources array`);
    for (const r of skill.resources) {
      const read = await client.readResource({ uri: r.uri }, reqOpts);
      const c = read.contents?.[0];
      let n;
      if (typeof c?.text === 'string') n = Buffer.byteLength(c.text, 'utf8');
      else if (typeof c?.blob === 'string') n = Buffer.from(c.blob, 'base64').length;
      else throw new Error(`resources/read ${r.uri}: contents carry neither text nor blob`);
      if (n !== r.size) throw new Error(`resources/read ${r.uri}: ${n} bytes, listed as ${r.size}`);
      files++;
      if (n === 0) emptyFiles++;
    }
  }
  let cursor;
  do {
    const res = await client.listResources(cursor === undefined ? {} : { cursor }, reqOpts);
    cursor = res.nextCursor;
  } while (cursor);
  await client.listResourceTemplates({}, reqOpts);

  const first = skills[0];
  const skillPath = first.uri.replace(/^skill:\/\//, '').replace(/\/SKILL\.md$/, '');
  const lastFile = first.resources[first.resources.length - 1].uri.slice(`skill://${skillPath}/`.length);
  const argument = (name) => (name === 'skill' ? skillPath : name === 'path' ? decodeURIComponent(lastFile) : 'skill');

  const { tools } = await client.listTools({}, reqOpts);
  for (const tool of tools) {
    const args = {};
    for (const name of tool.inputSchema?.required ?? []) args[name] = argument(name);
    const res = await client.callTool({ name: tool.name, arguments: args }, undefined, reqOpts);
    if (res.isError) throw new Error(`tools/call ${tool.name}: ${JSON.stringify(res.content)}`);
  }
  const { prompts } = await client.listPrompts({}, reqOpts);
  for (const p of prompts) {
    const args = {};
    for (const a of p.arguments ?? []) if (a.required) args[a.name] = argument(a.name);
    await client.getPrompt({ name: p.name, arguments: args }, reqOpts);
  }
  return { skills: skills.length, files, emptyFiles, tools: tools.length, prompts: prompts.length };
}

// Exit explicitly so that an open socket or a child process cannot keep the probe alive.
main().then(
  () => process.exit(0),
  (err) => {
    console.error(`ts-client: ${err instanceof Error ? err.message : String(err)}`);
    process.exit(1);
  },
);
