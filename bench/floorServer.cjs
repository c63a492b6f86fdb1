// The floor of bench/startup.mjs: a Node server that answers `initialize` at once and exits when its
// input ends, spawned exactly like ours. CommonJS and no requires, like dist/server.js.
let answered = false;
process.stdin.on('data', (chunk) => {
  if (answered || !String(chunk).includes('\n')) return;
  answered = true;
  process.stdout.write('{"id":1,"result":{"userAgent":"floor"}}\n');
});
process.stdin.on('end', () => process.stdin.destroy());
