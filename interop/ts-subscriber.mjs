// ts-subscriber.mjs: an interop probe that stays connected to a skills-mcp server with the
// official TypeScript SDK (v1.x, pinned in package.json) and reports the list changes it is
// told of, as a host that keeps a session open while the server swaps releases (serve --follow).
//
// Usage:
//   node ts-subscriber.mjs [--events N] [--timeout MS] --stdio -- CMD [ARGS...]
//
// The v1 SDK speaks protocol revisions up to 2025-11-25, whose notifications travel over stdio
// or a session's GET stream; skills-mcp's HTTP is stateless (it answers that GET 405), so a
// v1 host gets live updates over stdio: the probe spawns CMD, lists the resources and prompts
// and prints {"ready": true, "resources": R, "prompts": P}.
// Then, for each notifications/resources/list_changed or notifications/prompts/list_changed
// it receives, it lists again and prints {"event": METHOD, "resources": R, "prompts": P}. It
// exits 0 after N events (default 1), 1 with a message on stderr on a failure or when no event
// came within --timeout (default 60000), and 2 on a usage error.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import {
  PromptListChangedNotificationSchema,
  ResourceListChangedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';

function usage(msg) {
  if (msg) console.error(`ts-subscriber: ${msg}`);
  console.error('usage: ts-subscriber.mjs [--events N] [--timeout MS] --stdio -- CMD [ARGS...]');
  process.exit(2);
}

function parseArgs(argv) {
  const opts = { cmd: null, events: 1, timeout: 60000 };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const num = () => {
      const n = Number(argv[++i]);
      if (!Number.isInteger(n) || n <= 0) usage(`${a} needs a positive integer`);
      return n;
    };
    if (a === '--events') opts.events = num();
    else if (a === '--timeout') opts.timeout = num();
    else if (a === '--stdio') {
      if (argv[i + 1] !== '--' || i + 2 >= argv.length) usage('--stdio needs -- CMD [ARGS...]');
      opts.cmd = argv.slice(i + 2);
      break;
    } else usage(`unknown argument ${JSON.stringify(a)}`);
  }
  if (opts.cmd === null) usage('give --stdio -- CMD [ARGS...]');
  return opts;
}

async function counts(client) {
  let resources = 0;
  let cursor;
  do {
    const res = await client.listResources(cursor === undefined ? {} : { cursor });
    resources += res.resources.length;
    cursor = res.nextCursor;
  } while (cursor);
  const { prompts } = await client.listPrompts({});
  return { resources, prompts: prompts.length };
}

async function main() {
  const opts = parseArgs(process.argv.slice(2));
  const client = new Client({ name: 'skills-mcp-interop-ts-subscriber', version: '0.0.0' });
  let seen = 0;
  let done;
  const finished = new Promise((resolve, reject) => {
    done = { resolve, reject };
  });
  // Events are handled one after another, in arrival order.
  let chain = Promise.resolve();
  const on = (method) => () => {
    chain = chain.then(async () => {
      console.log(JSON.stringify({ event: method, ...(await counts(client)) }));
      if (++seen >= opts.events) done.resolve();
    }).catch((err) => done.reject(err));
  };
  client.setNotificationHandler(ResourceListChangedNotificationSchema, on('notifications/resources/list_changed'));
  client.setNotificationHandler(PromptListChangedNotificationSchema, on('notifications/prompts/list_changed'));
  const [command, ...args] = opts.cmd;
  await client.connect(new StdioClientTransport({ command, args, env: process.env, stderr: 'inherit' }));
  try {
    console.log(JSON.stringify({ ready: true, ...(await counts(client)) }));
    const timer = setTimeout(() => done.reject(new Error(`${seen} of ${opts.events} events in ${opts.timeout} ms`)), opts.timeout);
    await finished;
    clearTimeout(timer);
  } finally {
    await client.close();
  }
}

// Exit explicitly so that an open socket cannot keep the probe alive.
main().then(
  () => process.exit(0),
  (err) => {
    console.error(`ts-subscriber: ${err instanceof Error ? err.message : String(err)}`);
    process.exit(1);
  },
);
