// tests/web/bench.js (make bench, tests/bench/bench_web.sh): times make web's pages
// in headless Chromium, each opened from file:// with ?args= as a link would open it.
//
//   node tests/web/bench.js WEB CHROMIUM RUNS PROGRAM ARGS [PROGRAM ARGS]...
//
// For each page, RUNS times: the milliseconds from opening it to its first output,
// from the start of its run to its end, and of that run its start-up (to main: the
// worker made, the program compiled, its files in place); prints one line per page:
//   PROGRAM first-output-ms run-ms start-up-ms   (each the best of RUNS, the run least held up by other work)
'use strict';
const path = require('path');
const {Browser, open, evaluate} = require('./check.js');

const [web, chromium, runs, ...rest] = process.argv.slice(2);

async function once(browser, program, args) {
  const url = 'file://' + path.resolve(web, program + '.html') + '?args=' + encodeURIComponent(args);
  const tab = await open(browser, url);
  const deadline = Date.now() + 600000;
  let r = null;
  while (!r && Date.now() < deadline) {
    await new Promise(done => setTimeout(done, 50));
    r = await evaluate(browser, tab, `(() => { const o = document.getElementById('output');
      return o && o.dataset.status !== undefined ? {...o.dataset} : null; })()`).catch(() => null);
  }
  browser.listeners.delete(tab.listener);
  await browser.send('Target.closeTarget', {targetId: tab.target});
  if (!r || r.status !== '0' || tab.errors.length) throw new Error(program + ' ' + args + ': ' + JSON.stringify(r) + ' ' + tab.errors.join('; '));
  return {first: +r.startedMs + +r.firstOutputMs, run: +r.runMs, main: +r.mainMs};
}

async function main() {
  const browser = new Browser(chromium);
  try {
    for (let i = 0; i < rest.length; i += 2) {
      const times = [];
      for (let n = 0; n < +runs; n++) times.push(await once(browser, rest[i], rest[i + 1]));
      const best = key => Math.min(...times.map(t => t[key]));
      console.log(rest[i], best('first'), best('run'), best('main'));
    }
  } finally {
    await browser.close();
  }
}
main().then(() => process.exit(0), e => { console.error('bench.js: ' + (e.stack || e)); process.exit(1); });
