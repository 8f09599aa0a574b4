// tests/browser/check_pages.js: the three demos' --html pages in headless Chromium,
// driven from outside with real input events (mouse, keys, touch) through the
// Chrome DevTools Protocol over --remote-debugging-pipe, so it needs nothing but
// Node.js and the browser. For each page it points at a row, a letter or a query,
// presses arrow keys, and compares what the page then shows with what the program
// prints for that row (--row), letter (--at) or query (--query). Any JavaScript
// error, console error or request for another file fails the page. A screenshot
// of each page goes into the output folder.
//
//   node tests/browser/check_pages.js BUILD CHROMIUM OUTDIR
'use strict';
const {execFileSync} = require('child_process');
const fs = require('fs'), os = require('os'), path = require('path');
const {Browser} = require('./devtools.js');

const [build, chromium, outdir] = process.argv.slice(2);
const TIMEOUT_MS = 90000;  // the whole check; it takes a few seconds

let passed = 0, failed = 0;
function check(ok, what, detail) {
  if (ok) passed++; else failed++;
  console.log((ok ? 'PASS  ' : 'FAIL  ') + what + (ok || !detail ? '' : '\n      ' + detail));
  return ok;
}

// ---------------------------------------------------------------------------
// The programs' own numbers: run them and read their plain-text output.

function run(program, args) {
  return execFileSync(path.join(build, 'chapter_tiny', program), args, {encoding: 'utf8', env: {...process.env, NO_COLOR: '1'}});
}

// tiny_2 --row N: [{s, letter, percent}] for every letter the row reads, and the head's name.
function programRow(row) {
  const out = run('tiny_2_No_Peeking', ['--row', String(row)]);
  const lines = out.split('\n'), start = lines.findIndex(l => l.startsWith('Row ' + row + ','));
  const reads = [];
  for (const line of lines.slice(start + 1)) {
    const m = line.match(/^ +(\d+) '(.)' +([\d.]+)%/);
    if (!m) break;
    reads.push({s: +m[1], letter: m[2], percent: +m[3]});
  }
  return {head: out.match(/^(block \d head \d)/m)[1], letter: lines[start].match(/'(.)'/)[1], reads};
}

// tiny_3 --at N: for each of the 8 heads, its top reads [{s, letter, percent}].
function programAt(at) {
  const heads = [];
  for (const line of run('tiny_3_Several_Readers', ['--at', String(at)]).split('\n')) {
    const m = line.match(/^  (block \d head \d)  ((?: +\d+ '.' +[\d.]+%)+)$/);
    if (!m || heads.length === 8) continue;
    const reads = [...m[2].matchAll(/(\d+) '(.)' +([\d.]+)%/g)].map(r => ({s: +r[1], letter: r[2], percent: +r[3]}));
    heads.push({head: m[1], reads});
  }
  return heads;
}

// tiny_1 --query X,Y: the query and the mix as printed, and each word's share.
function programQuery(q) {
  const out = run('tiny_1_Soft_Lookup', ['--query', q.join(',')]);
  const shares = [...out.matchAll(/^  (bag|fit|car|too) +\([^)]*\) +-?[\d.]+ +([\d.]+)%/gm)].map(m => +m[2]);
  return {query: out.match(/^The query for "small" is (\(.*\))\./m)[1], shares,
          found: out.match(/the mix "small" gets back: +(\(.*\))/)[1]};
}

// "( 0.99, -1.17)" as two numbers.
const numbers = pair => pair.replace(/[()]/g, '').split(',').map(Number);

// One tab with one page in it; every error the page reports is kept in `errors`.
class Tab {
  // phone: a 390 x 844 screen at 3 device pixels a pixel, laid out as a phone's browser lays it out
  // (at the screen's width, as the page's viewport line asks).
  static async open(browser, file, width, height, phone = false) {
    const tab = new Tab();
    tab.browser = browser;
    tab.url = 'file://' + path.resolve(file);
    tab.errors = [];
    tab.phone = phone;
    tab.target = (await browser.send('Target.createTarget', {url: 'about:blank'})).targetId;
    tab.session = (await browser.send('Target.attachToTarget', {targetId: tab.target, flatten: true})).sessionId;
    let loaded;
    const load = new Promise(resolve => { loaded = resolve; });
    browser.listeners.add(m => {
      if (m.sessionId !== tab.session) return;
      const p = m.params;
      if (m.method === 'Page.loadEventFired') loaded();
      if (m.method === 'Runtime.exceptionThrown')
        tab.errors.push('uncaught: ' + (p.exceptionDetails.exception?.description || p.exceptionDetails.text));
      if (m.method === 'Runtime.consoleAPICalled' && (p.type === 'error' || p.type === 'assert'))
        tab.errors.push('console.' + p.type + ': ' + p.args.map(a => a.value ?? a.description).join(' '));
      if (m.method === 'Log.entryAdded' && p.entry.level === 'error') tab.errors.push('log: ' + p.entry.text);
      if (m.method === 'Network.requestWillBeSent' && p.request.url !== tab.url)
        tab.errors.push('fetched another file: ' + p.request.url);
    });
    for (const domain of ['Page', 'Runtime', 'Log', 'Network']) await tab.send(domain + '.enable');
    await tab.send('Emulation.setDeviceMetricsOverride', {width, height, deviceScaleFactor: phone ? 3 : 1, mobile: phone});
    await tab.send('Emulation.setTouchEmulationEnabled', {enabled: true, maxTouchPoints: 1});
    await tab.send('Page.navigate', {url: tab.url});
    await load;
    // Which kinds of pointer the page was given: pointerType of every pointerdown, seen before the page's own handlers.
    await tab.value(`window.pointerKinds = new Set(), addEventListener('pointerdown', e => pointerKinds.add(e.pointerType), true)`);
    return tab;
  }
  send(method, params) { return this.browser.send(method, params, this.session); }
  // An expression's value in the page, after the page has drawn what the last event changed.
  async value(expression) {
    const r = await this.send('Runtime.evaluate', {
      expression: 'new Promise(r => requestAnimationFrame(() => r())).then(() => (' + expression + '))',
      awaitPromise: true, returnByValue: true});
    if (r.exceptionDetails) throw new Error('in the page: ' + (r.exceptionDetails.exception?.description || r.exceptionDetails.text));
    return r.result.value;
  }
  // A mouse (or, with kind 'pen', a pen) at page pixel (x, y), its button pressed or not.
  mouse(type, x, y, pressed, kind = 'mouse') {
    return this.send('Input.dispatchMouseEvent', {type, x, y, button: type === 'mouseMoved' && !pressed ? 'none' : 'left',
                                                 buttons: pressed ? 1 : 0, clickCount: 1, pointerType: kind});
  }
  async click(x, y) {
    await this.mouse('mouseMoved', x, y, false);
    await this.mouse('mousePressed', x, y, true);
    await this.mouse('mouseReleased', x, y, false);
  }
  async key(name, times = 1) {
    const code = {ArrowLeft: 37, ArrowUp: 38, ArrowRight: 39, ArrowDown: 40}[name];
    for (let i = 0; i < times; i++)
      for (const type of ['rawKeyDown', 'keyUp'])
        await this.send('Input.dispatchKeyEvent', {type, key: name, code: name, windowsVirtualKeyCode: code, nativeVirtualKeyCode: code});
  }
  // A finger put down at the first point, slid through the others, and lifted.
  async swipe(points, lift = true) {
    await this.send('Input.dispatchTouchEvent', {type: 'touchStart', touchPoints: [{x: points[0][0], y: points[0][1]}]});
    for (const [x, y] of points.slice(1)) await this.send('Input.dispatchTouchEvent', {type: 'touchMove', touchPoints: [{x, y}]});
    if (lift) await this.lift();
  }
  lift() { return this.send('Input.dispatchTouchEvent', {type: 'touchEnd', touchPoints: []}); }
  // The whole page; on a phone, the screen as the phone shows it.
  async screenshot(file) {
    const {cssContentSize: size} = await this.send('Page.getLayoutMetrics');
    const {data} = await this.send('Page.captureScreenshot', this.phone ? {format: 'png'} : {format: 'png', captureBeyondViewport: true,
      clip: {x: 0, y: 0, width: Math.ceil(size.width), height: Math.ceil(size.height), scale: 1}});
    fs.writeFileSync(file, Buffer.from(data, 'base64'));
  }
}

// ---------------------------------------------------------------------------
// What the pages show, read from their SVG.

// The reads groups on display, and the read-outs of the one shown: "'c' at s: P%" as {s, letter, percent}.
const SHOWN_READS = `(() => {
  const shown = [...document.querySelectorAll('g[id^=reads]')].filter(g => !g.hasAttribute('display'));
  return {ids: shown.map(g => g.id), lines: shown.length ? [...shown[0].querySelectorAll('text')].map(t => t.textContent) : []};
})()`;
function readsIn(line) {
  return [...line.matchAll(/'(.)' at (\d+): (\d+)%/g)].map(m => ({letter: m[1], s: +m[2], percent: +m[3]}));
}

// The page rounds to whole percent what the program prints to 0.1%: they agree within that rounding.
function sameReads(page, program) {
  return page.length === program.length &&
         page.every((r, i) => r.s === program[i].s && r.letter === program[i].letter && Math.abs(r.percent - program[i].percent) <= 0.55);
}
// The page's k largest reads against every read the program printed for that row: the same letters and
// percents, largest first, none left out that printed larger (two that print alike may come either way round).
function largestReads(page, reads, k) {
  const listed = page.map(r => reads.find(p => p.s === r.s));
  if (page.length !== Math.min(k, reads.length) || listed.some(p => !p)) return false;
  const smallest = Math.min(...listed.map(p => p.percent));
  return page.every((r, i) => r.letter === listed[i].letter && Math.abs(r.percent - listed[i].percent) <= 0.55 &&
                              (i === 0 || listed[i - 1].percent >= listed[i].percent)) &&
         reads.every(r => listed.includes(r) || r.percent <= smallest);
}
const show = reads => reads.map(r => `'${r.letter}' at ${r.s}: ${r.percent}%`).join(', ');

// The centre of each SVG text outside the reads groups whose content matches a pattern, in page pixels.
const labels = pattern => `[...document.querySelectorAll('svg > text')].filter(t => ${pattern}.test(t.textContent)).map(t => {
  const b = t.getBoundingClientRect(); return {text: t.textContent, x: b.left + b.width / 2, y: b.top + b.height / 2};
})`;

// Where the i-th SVG label matching a pattern is shown once scrolled into view (its box sideways, the page up or
// down, as a learner's finger would), in page pixels.
// (First the box's last fling ends: its scroll unchanged over 5 frames.)
const placeOf = (pattern, i) => `(async () => {
  const box = document.getElementById('demo'), frame = () => new Promise(r => requestAnimationFrame(r));
  for (let still = 0, last = -1; still < 5; last = box.scrollLeft, await frame())
    still = box.scrollLeft === last ? still + 1 : 0;
  const t = [...document.querySelectorAll('svg > text')].filter(t => ${pattern}.test(t.textContent))[${i}];
  t.scrollIntoView({block: 'center', inline: 'center'});
  const b = t.getBoundingClientRect(); return [b.left + b.width / 2, b.top + b.height / 2];
})()`;
// The read-out repeated under the picture on a phone (#reading), and whether all of it is on the screen.
const READING = `(() => { const r = document.getElementById('reading'), b = r.getBoundingClientRect();
  return {lines: r.innerText.split('\\n'), inView: b.height > 0 && b.top >= 0 && b.bottom <= innerHeight + 1}; })()`;
// How far the picture's box is scrolled sideways.
const SCROLLED = `document.getElementById('demo').scrollLeft`;

// The page already written, on a phone's screen: laid out at the screen's width (scale 1), nothing wider than the
// screen (only the picture's box may scroll sideways, inside itself), every label it shows drawn at least 11 px high.
async function openOnPhone(browser, name) {
  const tab = await Tab.open(browser, path.join(outdir, name + '.html'), 390, 844, true);
  const fit = await tab.value(`(() => {
    const page = document.documentElement;
    const shown = [...document.querySelectorAll('svg text')].filter(t => t.getClientRects().length);
    const drawn = t => parseFloat(getComputedStyle(t).fontSize) * visualViewport.scale *
                       t.ownerSVGElement.getBoundingClientRect().width / t.ownerSVGElement.viewBox.baseVal.width;
    return {scale: visualViewport.scale, fits: page.scrollWidth <= page.clientWidth,
            smallest: Math.min(...shown.map(drawn))}; })()`);
  check(fit.scale === 1 && fit.fits && fit.smallest >= 11,
        `${name}: on a phone's screen the page is shown at its own size (scale ${fit.scale}), ` +
        `no wider than the screen, ` +
        `its smallest label ${fit.smallest.toFixed(1)} px high`, JSON.stringify(fit));
  return tab;
}

// The program's page, written into outdir and opened in a tab of width x height pixels.
async function openPage(browser, name, width, height) {
  const file = path.join(outdir, name + '.html');
  run(name, ['--html', file]);
  return Tab.open(browser, file, width, height);
}

// After the interactions: the kinds of pointer the page was given, a screenshot, and no errors.
async function finish(tab, name, expected = 'mouse,touch') {
  const kinds = await tab.value('[...pointerKinds].sort().join()');
  check(kinds === expected, `${name}: the page was given these pointers' events: ${expected}`, `pointerdown kinds: ${kinds}`);
  await tab.screenshot(path.join(outdir, name + '.png'));
  check(tab.errors.length === 0, `${name}: no JavaScript error, console error or other file fetched`, tab.errors.join('; '));
  await tab.browser.send('Target.closeTarget', {targetId: tab.target});
}

async function checkTriangle(browser) {
  const name = 'tiny_2_No_Peeking', tab = await openPage(browser, name, 900, 1000);
  const rows = await tab.value(labels('/^\\d+ .$/'));  // "20 _": row 20's label, left of the triangle
  const x = rows[0].x + 40;                           // over the triangle's first column
  const T = rows.length;
  check(T === 54, `${name}: the page has a label for each of the 54 rows`, `found ${T}`);
  const expectRow = async (row, how) => {
    const shown = await tab.value(SHOWN_READS), program = programRow(row);
    const top5 = [...program.reads].sort((a, b) => b.percent - a.percent || a.s - b.s).slice(0, 5);
    const title = await tab.value(`document.querySelector('svg > text').textContent`);
    const page = readsIn(shown.lines.slice(1).join(' '));
    check(shown.ids.join() === 'reads' + row && shown.lines[0] === `row ${row} '${program.letter}' reads:` &&
          title.startsWith(program.head) && largestReads(page, program.reads, 5),
          `${name}: ${how}, the page shows row ${row}'s five largest reads as --row ${row} prints them (${show(top5)})`,
          `page shows ${shown.ids.join()} "${shown.lines.join(' | ')}" in "${title}"`);
  };
  check((await tab.value(SHOWN_READS)).ids.join() === 'reads53', `${name}: the page opens showing the last row, 53`);
  await tab.mouse('mouseMoved', x, rows[20].y, false);
  await expectRow(20, 'the mouse over row 20');
  await tab.mouse('mouseMoved', x, rows[7].y, false);
  await expectRow(7, 'the mouse moved on to row 7');
  await tab.click(x, rows[40].y);
  await tab.key('ArrowDown', 3);
  await tab.key('ArrowUp');
  await expectRow(42, 'a click on row 40, then 3 down arrows and 1 up');
  await tab.key('ArrowDown', 20);
  await expectRow(53, 'the down arrow past the last row');
  // A finger reads the row it taps (a finger dragged scrolls instead: checkTriangleOnPhone).
  await tab.swipe([[x, rows[31].y]]);
  await expectRow(31, 'a finger\'s tap on row 31');
  await finish(tab, name);
}

// The arcs page in a tab: where each letter is, and a check of what the page shows.
async function arcsProbe(tab, name) {
  const all = await tab.value(labels('/^.$/'));  // the sentence's letters, lane after lane
  check(all.length === 8 * 54, `${name}: the page has the 54 letters in each of the 8 lanes`, `found ${all.length}`);
  const expectAt = async (at, how) => {
    const shown = await tab.value(SHOWN_READS), program = programAt(at);
    const page = shown.lines.filter(l => l.includes(' at ')).map(readsIn);
    const agree = page.length === 8 && program.length === 8 && page.every((reads, h) => sameReads(reads, program[h].reads));
    check(shown.ids.join() === 'reads' + at && agree,
          `${name}: ${how}, each of the 8 heads' top 3 reads from letter ${at} as --at ${at} prints them` +
          ` (block 1 head 1: ${program.length ? show(program[0].reads) : '?'})`,
          `page shows ${shown.ids.join()}: ${page.map(show).join(' | ')}`);
  };
  return {letters: all.slice(0, 54), expectAt};  // the first lane's: letter t is the t-th
}

async function checkArcs(browser) {
  const name = 'tiny_3_Several_Readers', tab = await openPage(browser, name, 1100, 800);
  const {letters, expectAt} = await arcsProbe(tab, name);
  await tab.mouse('mouseMoved', letters[20].x, letters[20].y, false);
  await expectAt(20, 'the mouse over letter 20');
  await tab.click(letters[30].x, letters[30].y);
  await tab.key('ArrowRight', 4);
  await tab.key('ArrowLeft');
  await expectAt(33, 'a click on letter 30, then 4 right arrows and 1 left');
  await tab.key('ArrowLeft', 40);
  await expectAt(0, 'the left arrow past the first letter');
  await tab.swipe([[letters[17].x, letters[17].y]]);
  await expectAt(17, 'a finger\'s tap on letter 17');
  // A finger dragged along the sentence, where the box has nothing to scroll: the page stays (no "back"), and the
  // letter the finger is lifted from is read.
  await tab.swipe([10, 14, 17, 24].map(t => [letters[t].x, letters[t].y]));
  await expectAt(24, 'a finger dragged from letter 10 to letter 24');
  await finish(tab, name);
}

// The triangle on a phone's screen: drawn twice as large, so a finger taps one row; a drag sideways scrolls the box.
async function checkTriangleOnPhone(browser) {
  const name = 'tiny_2_No_Peeking', tab = await openOnPhone(browser, name);
  const row = async r => { const [x, y] = await tab.value(placeOf('/^\\d+ .$/', r)); return [x + 40, y]; };
  const shown = async () => (await tab.value(SHOWN_READS)).ids.join();
  const rows = await tab.value(labels('/^\\d+ .$/')), gap = rows[31].y - rows[30].y;
  check(gap >= 24, `${name}: on a phone, rows ${gap.toFixed(1)} px apart, at least 24`);
  await tab.swipe([await row(30)]);
  check(await shown() === 'reads30', `${name}: on a phone, a tap on row 30 (scrolled into view) shows its reads`,
        await shown());
  const said = await tab.value(READING), program = programRow(30), line = said.lines.join(' ');
  check(said.inView && line.startsWith(`row 30 '${program.letter}' reads: `) && largestReads(readsIn(line), program.reads, 5),
        `${name}: on a phone, row 30's five largest reads also in words at the foot of the screen`, JSON.stringify(said));
  const [x, y] = await row(12), before = await tab.value(SCROLLED);
  await tab.swipe([[x + 200, y], [x + 150, y], [x + 100, y], [x + 50, y]]);
  const after = await tab.value(SCROLLED);
  check(after > before && await shown() === 'reads30',
        `${name}: on a phone, a finger dragged sideways over row 12 scrolls the picture's box and still shows row 30`,
        `scrolled from ${before} to ${after} px, shows ${await shown()}`);
  await finish(tab, name + '_phone', 'touch');
}

// The arcs on a phone's screen: letters 24 px apart in a box that scrolls sideways; a tap reads one, a drag scrolls.
async function checkArcsOnPhone(browser) {
  const name = 'tiny_3_Several_Readers', tab = await openOnPhone(browser, name);
  const {letters, expectAt} = await arcsProbe(tab, name + ' on a phone');
  const apart = letters[1].x - letters[0].x;
  check(apart >= 24, `${name}: on a phone, letters ${apart.toFixed(1)} px apart, at least 24`);
  const opened = await tab.value(`(() => { const t = [...document.querySelectorAll('svg > text')]
    .filter(t => /^.$/.test(t.textContent))[+document.getElementById('demo').dataset.shown].getBoundingClientRect();
    return {left: t.left, right: t.right, width: innerWidth}; })()`);
  check(opened.left >= 0 && opened.right <= opened.width,
        `${name}: on a phone, the box opens with the letter it shows on the screen`, JSON.stringify(opened));
  const letter = t => tab.value(placeOf('/^.$/', t));  // the first lane's
  await tab.swipe([await letter(5)]);
  await expectAt(5, 'on a phone, a tap on letter 5');
  // At the box's left end, a finger dragged right: nothing to scroll, and not the browser's "back" either.
  // The box is put at its left end first (it opened scrolled to the letter it shows); the finger stays on the screen.
  const {x: x0, y: y0} = await tab.value(`(() => { document.getElementById('demo').scrollLeft = 0;
    return ${labels('/^.$/')}[0]; })()`);
  await tab.swipe([0, 1, 2, 3].map(i => [x0 + 40 * i, y0]));
  await expectAt(5, 'on a phone, after a drag to the right at the left end');
  const [x, y] = await letter(8), before = await tab.value(SCROLLED);
  await tab.swipe([[x + 150, y], [x + 75, y], [x, y], [x - 75, y]]);
  const after = await tab.value(SCROLLED);
  check(after > before, `${name}: on a phone, a finger dragged along the letters scrolls the picture's box`,
        `scrolled from ${before} to ${after} px`);
  await expectAt(5, 'on a phone, after that drag');
  await tab.swipe([await letter(45)]);
  await expectAt(45, 'on a phone, a tap on letter 45, scrolled into view');
  const said = await tab.value(READING), program = programAt(45);
  const lanes = said.lines.slice(1).map(l => l.match(/^(\d)\.(\d): (.*)$/));
  check(said.inView && said.lines[0].startsWith(`letter 45 '`) && lanes.length === 8 && program.length === 8 &&
        lanes.every((m, h) => m && `block ${m[1]} head ${m[2]}` === program[h].head && sameReads(readsIn(m[3]), program[h].reads)),
        `${name}: on a phone, each head's top 3 reads from letter 45 also in words at the foot of the screen`,
        JSON.stringify(said));
  await finish(tab, name + '_phone', 'touch');
}

// The soft lookup's page in a tab: where a query is on the keys' chart, and a check of what the page shows.
async function lookupProbe(tab, name) {
  // The keys' chart: the first light grey square, 6 units (-3 to 3) across.
  const box = await tab.value(`(() => { const b = document.querySelector('rect[fill="#f7f7f7"]').getBoundingClientRect();
                                         return {left: b.left, top: b.top, width: b.width, height: b.height}; })()`);
  const at = q => [box.left + (q[0] + 3) / 6 * box.width, box.top + (3 - q[1]) / 6 * box.height];
  const SHOWN = `(() => {
    const line = document.querySelector('#query path').getAttribute('d').match(/L([-\\d.]+),([-\\d.]+)/);  // none when too short to draw
    const tip = line && new DOMPoint(+line[1], +line[2]).matrixTransform(document.querySelector('svg').getScreenCTM());
    return {shares: [...document.querySelectorAll('#bars text')].map(t => parseFloat(t.textContent)),
            widths: [...document.querySelectorAll('#bars rect')].map(r => +r.getAttribute('width')),
            query: document.querySelector('#query > text:last-child').textContent,
            found: document.querySelector('#values > text:last-child').textContent,
            tip: tip && [tip.x, tip.y]};
  })()`;
  // The query q, its shares, bars and mix as --query q prints them; with pointer, the arrow's tip under it.
  const expectQuery = async (q, how, pointer) => {
    const page = await tab.value(SHOWN), program = programQuery(q);
    const sharesAgree = page.shares.length === 4 &&
                        page.shares.every((s, i) => Math.abs(s - program.shares[i]) <= 0.1 + 1e-9);  // float vs double, 0.1%
    const barsAgree = page.widths.every((w, i) => Math.abs(w / 220 * 100 - program.shares[i]) <= 0.1);
    const foundAgrees = numbers(page.found.slice(8)).every((v, i) => Math.abs(v - numbers(program.found)[i]) <= 0.01 + 1e-9);
    const tipFollows = !pointer || !page.tip || Math.hypot(page.tip[0] - pointer[0], page.tip[1] - pointer[1]) <= 1.5;
    check(page.query === 'query = ' + program.query && sharesAgree && barsAgree && foundAgrees && tipFollows,
          `${name}: ${how}: the query ${program.query}, shares ${program.shares.join('% ')}% and mix ${program.found}` +
          ` as --query ${q.join(',')} prints them` + (pointer ? ', the arrow\'s tip under the pointer' : ''),
          `page shows ${page.query}, shares ${page.shares.join('% ')}%, bars ${page.widths.join(' ')} px, ${page.found},` +
          ` tip at ${page.tip ? page.tip.map(v => v.toFixed(1)) : 'none'}` + (pointer ? ` (pointer at ${pointer.map(v => v.toFixed(1))})` : ''));
  };
  return {box, at, expectQuery};
}

async function checkSoftLookup(browser) {
  const name = 'tiny_1_Soft_Lookup', tab = await openPage(browser, name, 1100, 600);
  const {box, at, expectQuery} = await lookupProbe(tab, name);
  await expectQuery([1.5, -1.5], 'as it opens');
  // The mouse: hovering moves nothing; pressing on the chart puts the query there, and it follows the drag.
  await tab.mouse('mouseMoved', ...at([-2, 2]), false);
  await expectQuery([1.5, -1.5], 'the mouse over the chart, no button pressed');
  await tab.mouse('mousePressed', ...at([-0.5, 2]), true);
  await expectQuery([-0.5, 2], 'the mouse pressed at (-0.5, 2)', at([-0.5, 2]));
  for (const q of [[0, 1], [1, 0.5], [2, 1]]) await tab.mouse('mouseMoved', ...at(q), true);
  await expectQuery([2, 1], 'dragged on to (2, 1)', at([2, 1]));
  await tab.mouse('mouseMoved', box.left + box.width + 60, box.top - 40, true);
  await expectQuery([3, 3], 'dragged out past the chart\'s corner');
  await tab.mouse('mouseReleased', box.left + box.width + 60, box.top - 40, false);
  await tab.mouse('mouseMoved', ...at([0, 0]), false);
  await expectQuery([3, 3], 'let go, then the mouse moved to the middle');
  // The arrow keys: the press gave the picture focus; each key moves the query a quarter.
  await tab.key('ArrowLeft', 6);
  await tab.key('ArrowDown', 11);
  await expectQuery([1.5, 0.25], '6 left arrows and 11 down');
  // A pen, pressed and dragged toward "car".
  await tab.mouse('mousePressed', ...at([1, -1]), true, 'pen');
  await tab.mouse('mouseMoved', ...at([0.5, -2]), true, 'pen');
  await tab.mouse('mouseReleased', ...at([0.5, -2]), false, 'pen');
  await expectQuery([0.5, -2], 'a pen dragged from (1, -1) to (0.5, -2)', at([0.5, -2]));
  // A finger: down at the middle, where every word gets 25%, then slid to "fit"'s key.
  await tab.swipe([at([0, 0])], false);
  await expectQuery([0, 0], 'a finger down at the middle', at([0, 0]));
  await tab.lift();
  await tab.swipe([[0, 0], [-0.5, 0.5], [-1, 1], [-1.5, 1.5]].map(at));
  await expectQuery([-1.5, 1.5], 'a finger slid from the middle to (-1.5, 1.5)', at([-1.5, 1.5]));
  await finish(tab, name, 'mouse,pen,touch');
}

// The same page on a phone's screen: its three charts stacked at the screen's width, the query dragged with a finger.
async function checkSoftLookupOnPhone(browser) {
  const name = 'tiny_1_Soft_Lookup', tab = await openOnPhone(browser, name);
  const charts = await tab.value(`[...document.querySelectorAll('#demo svg')].map(svg => {
    const b = svg.getBoundingClientRect(); return {left: b.left, top: b.top, bottom: b.bottom, width: b.width}; })`);
  const stacked = charts.every((c, i) => i === 0 || (c.top >= charts[i - 1].bottom && c.left === charts[0].left));
  check(charts.length === 3 && stacked && charts[0].width >= 340,
        `${name}: on a phone, the three charts one under another, the keys' ${charts[0]?.width.toFixed(0)} px wide`,
        JSON.stringify(charts));
  const {at, expectQuery} = await lookupProbe(tab, name + ' on a phone');
  await tab.swipe([[2, 0.5], [1, 1], [0, 1.5], [-1, 1], [-1, -1]].map(at));
  await expectQuery([-1, -1], 'on a phone, a finger slid from (2, 0.5) round to (-1, -1)', at([-1, -1]));
  await finish(tab, name + '_phone', 'touch');
}

async function main() {
  const started = Date.now();
  const browser = new Browser(chromium);
  const timer = setTimeout(() => {
    console.log(`FAIL  the browser check did not finish in ${TIMEOUT_MS / 1000} s`);
    browser.process.kill('SIGKILL');
    process.exit(1);
  }, TIMEOUT_MS);
  try {
    console.log('Chromium ' + (await browser.send('Browser.getVersion')).product);
    await checkTriangle(browser);
    await checkArcs(browser);
    await checkSoftLookup(browser);
    await checkSoftLookupOnPhone(browser);
    await checkArcsOnPhone(browser);
    await checkTriangleOnPhone(browser);
  } catch (e) {
    check(false, 'the browser check ran to the end', e.stack + '\n      chromium said: ' + browser.stderr.slice(-1500));
  }
  await browser.close();
  clearTimeout(timer);
  console.log(`screenshots: ${outdir}/tiny_{1_Soft_Lookup,2_No_Peeking,3_Several_Readers}{,_phone}.png` +
              ` (${((Date.now() - started) / 1000).toFixed(1)} s)`);
  console.log(`${passed} passed, ${failed} failed`);
  process.exit(failed || !passed ? 1 : 0);
}
main();
