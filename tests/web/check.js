// tests/web/check.js: every golden case of make web's pages in headless Chromium,
// each page opened from file:// with the golden's arguments in ?args=. When the
// run ends (#output gets data-status), #output must hold the golden byte for
// byte, with status 0; any JavaScript error, console error, or request for
// anything but the page itself (in the page or in its worker) fails the case.
// The browser is driven through the Chrome DevTools Protocol over
// --remote-debugging-pipe (tests/browser/devtools.js): nothing but Node.js and
// the browser. One screenshot goes into OUTDIR.
//
//   node tests/web/check.js WEB CHROMIUM OUTDIR [FOLDER/PROGRAM[@CASE]...]
'use strict';
const {spawnSync} = require('child_process');
const fs = require('fs'), os = require('os'), path = require('path');
const {Browser} = require('../browser/devtools.js');

const [web, chromium, outdir, ...only] = require.main === module ? process.argv.slice(2) : [];
const top = path.resolve(__dirname, '../..');
const CASE_MS = 180000;  // one case, at most (Lab 5's runs take a few seconds; a loaded machine is slower)
const SCREENSHOT = 'chapter_tiny/tiny_1_Soft_Lookup@fit';

// One page in a new tab, and its worker (attached as it starts); what either reports as an error is kept.
// INIT: a script run in the page before its own.
async function open(browser, url, init = '') {
  const tab = {errors: [], sessions: new Set()};
  tab.target = (await browser.send('Target.createTarget', {url: 'about:blank'})).targetId;
  tab.session = (await browser.send('Target.attachToTarget', {targetId: tab.target, flatten: true})).sessionId;
  tab.sessions.add(tab.session);
  const watch = async session => {
    for (const domain of ['Runtime', 'Log', 'Network']) await browser.send(domain + '.enable', {}, session).catch(() => {});
    await browser.send('Target.setAutoAttach', {autoAttach: true, waitForDebuggerOnStart: true, flatten: true}, session).catch(() => {});
    await browser.send('Runtime.runIfWaitingForDebugger', {}, session).catch(() => {});
  };
  tab.listener = m => {
    if (!tab.sessions.has(m.sessionId)) return;
    const p = m.params;
    if (m.method === 'Target.attachedToTarget') {
      tab.sessions.add(p.sessionId);
      watch(p.sessionId);
    }
    if (m.method === 'Runtime.exceptionThrown')
      tab.errors.push('uncaught: ' + (p.exceptionDetails.exception?.description || p.exceptionDetails.text));
    if (m.method === 'Runtime.consoleAPICalled' && (p.type === 'error' || p.type === 'assert'))
      tab.errors.push('console.' + p.type + ': ' + p.args.map(a => a.value ?? a.description).join(' '));
    if (m.method === 'Log.entryAdded' && p.entry.level === 'error') tab.errors.push('log: ' + p.entry.text);
    // The page itself, and the worker the page makes from its own text (a blob: URL), are not requests.
    if (m.method === 'Network.requestWillBeSent' && p.request.url !== new URL(url).href && !p.request.url.startsWith('blob:'))
      tab.errors.push('requested: ' + p.request.url.slice(0, 200));
  };
  browser.listeners.add(tab.listener);
  await browser.send('Page.enable', {}, tab.session);
  if (init) await browser.send('Page.addScriptToEvaluateOnNewDocument', {source: init}, tab.session);
  await browser.send('Emulation.setDeviceMetricsOverride', {width: 1280, height: 900, deviceScaleFactor: 1, mobile: false}, tab.session);
  await watch(tab.session);
  await browser.send('Page.navigate', {url}, tab.session);
  return tab;
}

async function evaluate(browser, tab, expression) {
  const r = await browser.send('Runtime.evaluate', {expression, returnByValue: true}, tab.session);
  if (r.exceptionDetails) throw new Error('in the page: ' + (r.exceptionDetails.exception?.description || r.exceptionDetails.text));
  return r.result.value;
}

// The golden cases of the programs that have pages: [{name, golden, args}], in tests/golden's order.
function cases() {
  const found = [];
  const walk = folder => {
    for (const entry of fs.readdirSync(path.join(top, 'tests/golden', folder), {withFileTypes: true}).sort((a, b) => a.name < b.name ? -1 : 1)) {
      const rel = path.posix.join(folder, entry.name);
      if (entry.isDirectory()) { walk(rel); continue; }
      if (!entry.name.endsWith('.txt')) continue;
      const name = rel.slice(0, -4), program = name.split('@')[0];
      if (!fs.existsSync(path.join(web, program + '.html'))) continue;
      if (only.length && !only.includes(name) && !only.includes(program)) continue;
      const argsFile = path.join(top, 'tests/golden', name + '.args');
      const args = fs.existsSync(argsFile) ? fs.readFileSync(argsFile, 'utf8').trim() : '';
      found.push({name, program, args, golden: fs.readFileSync(path.join(top, 'tests/golden', rel))});
    }
  };
  walk('');
  return found;
}

async function checkCase(browser, c) {
  const url = 'file://' + path.resolve(web, c.program + '.html') + '?args=' + encodeURIComponent(c.args);
  const started = Date.now();
  const tab = await open(browser, url);
  let result = null;
  while (Date.now() - started < CASE_MS) {
    await new Promise(r => setTimeout(r, 100));
    result = await evaluate(browser, tab, `(() => { const o = document.getElementById('output');
      return o && o.dataset.status !== undefined ? {status: o.dataset.status, text: o.textContent,
        errors: document.getElementById('errors').textContent} : null; })()`).catch(() => null);
    if (result) break;
  }
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  const problems = [];
  if (!result) problems.push(`no data-status after ${CASE_MS / 1000} s`);
  else {
    if (result.status !== '0') problems.push(`status ${result.status}: ${result.errors.slice(0, 300)}`);
    const got = Buffer.from(result.text, 'utf8');
    if (!got.equals(c.golden)) {
      let at = 0;
      while (at < got.length && at < c.golden.length && got[at] === c.golden[at]) at++;
      problems.push(`#output differs from tests/golden/${c.name}.txt at byte ${at} (${got.length} bytes, golden ${c.golden.length}): ` +
                    JSON.stringify(got.subarray(at, at + 40).toString()) + ' for ' + JSON.stringify(c.golden.subarray(at, at + 40).toString()));
    }
  }
  await new Promise(r => setTimeout(r, 100));  // a late error or request
  problems.push(...tab.errors);
  if (c.name === SCREENSHOT) {
    const {data} = await browser.send('Page.captureScreenshot', {format: 'png'}, tab.session);
    fs.writeFileSync(path.join(outdir, 'page.png'), Buffer.from(data, 'base64'));
  }
  browser.listeners.delete(tab.listener);
  await browser.send('Target.closeTarget', {targetId: tab.target});
  console.log((problems.length ? 'FAILED: ' : 'ok: ') + c.name + (c.args ? ' ' + c.args : '') + ` (${seconds} s)` +
              problems.map(p => '\n      ' + p).join(''));
  return problems.length === 0;
}

// A page's own behaviour, beyond the goldens: a bad option shows the program's
// own error and status 2; the form's fields run it with other options, and a
// picture it writes (--svg) is shown; Stop ends a long run at once.
async function waitFor(browser, tab, expression, ms = CASE_MS) {
  const started = Date.now();
  while (Date.now() - started < ms) {
    const value = await evaluate(browser, tab, expression).catch(() => null);
    if (value !== null && value !== undefined && value !== false) return value;
    await new Promise(r => setTimeout(r, 100));
  }
  return null;
}
const ENDED = `(() => { const o = document.getElementById('output'); return o.dataset.status === undefined ? null :
  {status: o.dataset.status, text: o.textContent, errors: document.getElementById('errors').textContent,
   args: document.getElementById('args').value,
   frames: [...document.querySelectorAll('#files iframe')].map(f => ({title: f.title, doc: f.srcdoc}))}; })()`;

async function pageCheck(browser, name, program, args, test, init = '') {
  const url = 'file://' + path.resolve(web, program + '.html') + '?args=' + encodeURIComponent(args);
  const tab = await open(browser, url, init);
  const problems = [];
  try { await test(tab, problems); } catch (e) { problems.push(String(e.stack || e)); }
  await new Promise(r => setTimeout(r, 100));
  problems.push(...tab.errors);
  browser.listeners.delete(tab.listener);
  await browser.send('Target.closeTarget', {targetId: tab.target});
  console.log((problems.length ? 'FAILED: ' : 'ok: ') + name + problems.map(p => '\n      ' + p).join(''));
  return problems.length === 0;
}

function native(program, args, cwd) {
  const r = spawnSync(path.resolve(path.dirname(web), program), args, {cwd, encoding: 'utf8', env: {...process.env, NO_COLOR: '1'}});
  return {status: String(r.status), text: r.stdout, errors: r.stderr};
}

async function pageChecks(browser) {
  const results = [];
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'web-native-'));
  results.push(await pageCheck(browser, 'a bad option: the program\'s own error and status 2 (tiny_generate --length x)',
    'chapter_tiny/tiny_generate', '--length x', async (tab, problems) => {
      const got = await waitFor(browser, tab, ENDED), want = native('chapter_tiny/tiny_generate', ['--length', 'x'], top);
      if (!got) return problems.push('no data-status');
      for (const key of ['status', 'text', 'errors'])
        if (got[key] !== want[key]) problems.push(`${key}: ${JSON.stringify(got[key])}, natively ${JSON.stringify(want[key])}`);
    }));
  results.push(await pageCheck(browser, 'the form: tiny_1_Soft_Lookup with --query 1,1 --svg lookup.svg typed into its fields, and the picture shown',
    'chapter_tiny/tiny_1_Soft_Lookup', '', async (tab, problems) => {
      if (!await waitFor(browser, tab, ENDED)) return problems.push('the first run did not end');
      await evaluate(browser, tab, `(() => {
        for (const [id, value] of [['option--query', '1,1'], ['option--svg', 'lookup.svg']]) {
          const field = document.getElementById(id);
          field.value = value;
          field.dispatchEvent(new Event('input', {bubbles: true}));
        }
        document.getElementById('run').click();
      })()`);
      const got = await waitFor(browser, tab, ENDED), want = native('chapter_tiny/tiny_1_Soft_Lookup', ['--query', '1,1', '--svg', 'lookup.svg'], work);
      if (!got) return problems.push('no data-status after Run');
      if (got.args !== '--query 1,1 --svg lookup.svg') problems.push('the fields wrote the command line ' + JSON.stringify(got.args));
      if (got.status !== want.status || got.text !== want.text) problems.push('the output or status differs from the native run\'s');
      const svg = fs.readFileSync(path.join(work, 'lookup.svg'), 'utf8');
      if (!(got.frames.length === 1 && got.frames[0].title === 'lookup.svg' && got.frames[0].doc === svg))
        problems.push('lookup.svg is not shown as the native program writes it: ' + JSON.stringify(got.frames.map(f => f.title)));
    }));
  results.push(await pageCheck(browser, 'Stop: Lab 5 at 100,000 updates stopped after its first output (status 130), the page never frozen',
    'chapter15/15_2_Lab5_Training', '--updates 100000', async (tab, problems) => {
      if (!await waitFor(browser, tab, `document.getElementById('output').textContent.length > 0`)) return problems.push('no output');
      const before = Date.now();
      await evaluate(browser, tab, `document.getElementById('stop').click()`);
      const got = await waitFor(browser, tab, ENDED, 5000);
      if (!got || got.status !== '130') problems.push('after Stop: ' + JSON.stringify(got && got.status));
      if (Date.now() - before > 2000) problems.push(`the page took ${Date.now() - before} ms to answer`);
    }));
  results.push(await pageCheck(browser, 'a folder option in the page: Lab 5 with --svg pics (no folder made first) writes its pictures and shows them',
    'chapter15/15_2_Lab5_Training', '--updates 20 --svg pics', async (tab, problems) => {
      const got = await waitFor(browser, tab, ENDED);
      if (!got) return problems.push('no data-status');
      if (got.status !== '0') problems.push('status ' + got.status + ': ' + got.errors.slice(0, 200));
      if (!got.frames.length || !got.frames.every(f => f.title.startsWith('pics/') && f.doc.startsWith('<svg')))
        problems.push('pictures shown: ' + JSON.stringify(got.frames.map(f => f.title)));
    }));
  results.push(await pageCheck(browser, 'pictures by default: Lab 5 run as it comes, its output the golden\'s and its --svg pictures drawn under it',
    'chapter15/15_2_Lab5_Training', '', async (tab, problems) => {
      const got = await waitFor(browser, tab, ENDED);
      if (!got) return problems.push('no data-status');
      const golden = fs.readFileSync(path.join(top, 'tests/golden/chapter15/15_2_Lab5_Training.txt'), 'utf8');
      if (got.text !== golden) problems.push('the output is not the golden\'s');
      const frames = await waitFor(browser, tab, `document.querySelectorAll('#files iframe').length > 0 &&
        [...document.querySelectorAll('#files iframe')].map(f => f.title)`, 60000);
      if (!frames || !frames.every(t => t.startsWith('pictures/') && t.endsWith('.svg'))) problems.push('pictures: ' + JSON.stringify(frames));
    }));
  results.push(await pageCheck(browser, 'one state: --seed 2 typed on the command line shows in the --seed field, and a field typed in shows on the line',
    'chapter15/15_2_Lab5_Training', '--updates 10', async (tab, problems) => {
      if (!await waitFor(browser, tab, ENDED)) return problems.push('the first run did not end');
      const seed = await evaluate(browser, tab, `(() => { const a = document.getElementById('args');
        a.value = '--seed 2 --updates 10'; a.dispatchEvent(new Event('input', {bubbles: true}));
        return document.getElementById('option--seed').value; })()`);
      if (seed !== '2') problems.push('the --seed field shows ' + JSON.stringify(seed));
      const line = await evaluate(browser, tab, `(() => { const f = document.getElementById('option--lr');
        f.value = '0.01'; f.dispatchEvent(new Event('input', {bubbles: true})); return document.getElementById('args').value; })()`);
      if (line !== '--seed 2 --lr 0.01 --updates 10') problems.push('the command line reads ' + JSON.stringify(line));
    }));
  results.push(await pageCheck(browser, 'the book beside the output: 15.3\'s page has the book\'s 39.9 beside our 42.6, and its README words',
    'chapter15/15_3_Learned_Weights', '', async (tab, problems) => {
      if (!await waitFor(browser, tab, ENDED)) return problems.push('no data-status');
      const rows = await evaluate(browser, tab, `[...document.querySelectorAll('.book tbody tr')].map(r => r.textContent)`);
      if (!rows.some(r => r.includes('39.9') && r.includes('42.6') && r.includes('ours'))) problems.push('no row with 39.9, 42.6 and ours');
      if (!await evaluate(browser, tab, `!!document.querySelector('p.readme')`)) problems.push('no README words above the program');
    }));
  // The programs are built with WebAssembly SIMD (tests/web/web.mk): a browser without it is told so, not crashed.
  results.push(await pageCheck(browser,
    'a browser without WebAssembly SIMD: the page says it cannot run here and gives the native command',
    'chapter_tiny/tiny_generate', '', async (tab, problems) => {
      const said = await waitFor(browser, tab, `document.getElementById('errors').textContent || null`);
      if (!(said || '').includes('cannot run the program here') || !said.includes('build/chapter_tiny/tiny_generate'))
        problems.push('the page says ' + JSON.stringify(said));
    }, `{ const validate = WebAssembly.validate;  // SIMD's instructions all start with the byte 0xfd
          WebAssembly.validate = bytes => !new Uint8Array(bytes).includes(0xfd) && validate(bytes); }`));
  fs.rmSync(work, {recursive: true, force: true});
  return results;
}

async function main() {
  fs.mkdirSync(outdir, {recursive: true});
  const all = cases();
  if (all.length === 0) { console.log(`FAILED: no golden case has a page in ${web} (run make web)`); return false; }
  const browser = new Browser(chromium);
  let passed = 0, pages = [];
  try {
    await browser.send('Target.setDiscoverTargets', {discover: true});
    for (const c of all) if (await checkCase(browser, c)) passed++;
    if (!only.length) pages = await pageChecks(browser);
  } finally {
    await browser.close();
  }
  const pagesPassed = pages.filter(Boolean).length;
  console.log(`\n${passed} of ${all.length} golden cases match in Chromium` + (passed === all.length ? '' : `: ${all.length - passed} FAILED`) +
              (pages.length ? `; ${pagesPassed} of ${pages.length} page checks pass` : '') +
              (fs.existsSync(path.join(outdir, 'page.png')) ? `; screenshot ${path.join(outdir, 'page.png')}` : ''));
  return passed === all.length && pagesPassed === pages.length;
}

// (tests/web/bench.js opens pages the same way.)
module.exports = {Browser, open, evaluate};
if (require.main === module) {
  const timer = setTimeout(() => { console.log('FAILED: the check took too long'); process.exit(1); }, 40 * 60 * 1000);
  main().then(ok => { clearTimeout(timer); process.exit(ok ? 0 : 1); },
              e => { console.log('FAILED: ' + (e.stack || e)); process.exit(1); });
}
