import { startMacpilot } from '/work/wt-i14-record/test/support/mcp.js';
const env = Object.fromEntries(Object.entries(process.env).filter(([, v]) => v !== undefined)) as Record<string, string>;
const m = await startMacpilot(env);
const [tool, args] = [process.argv[2] ?? 'snapshot_ui', JSON.parse(process.argv[3] ?? '{"app":"gtk3-demo"}')];
const out = await m.call(tool, args);
console.log(out.text);
await m.close();
