// tests/web/phone.js: every page of make web, its index, the three demos' --html pages and the grader's
// similarity.html (as make test's grader_similarity check writes it into BUILD/checks/), opened
// in headless Chromium on a phone's screen (390 x 844 CSS px, touch) once the program has run:
// - nothing scrolls sideways but the boxes made to (the output, the source): the page fits 390 px;
// - no visible text under 11 CSS px, an SVG's letters measured as drawn (its scale applied);
// - every control (field, button, link, summary) at least 24 x 24 px: WCAG 2.2's target size
//   (2.5.8), whose own exception for a link inside a sentence is kept.
// A screenshot at the phone's size and one at a desktop's (1280 x 900) of each page go in
// OUTDIR/phone and OUTDIR/desktop, to be looked at.
//
//   node tests/web/phone.js WEB CHROMIUM OUTDIR BUILD [FOLDER/PROGRAM...]
'use strict';
const {spawnSync} = require('child_process');
const fs = require('fs'), os = require('os'), path = require('path');
const {Browser, open, evaluate} = require('./check.js');

const [web, chromium, outdir, build, ...only] = process.argv.slice(2);
const PHONE = {width: 390, height: 844, deviceScaleFactor: 2, mobile: true};
const DESKTOP = {width: 1280, height: 900, deviceScaleFactor: 1, mobile: false};
const RUN_MS = 120000;  // a page's program, at most, before its layout is measured
// The demos' own pages, written by the native programs (--html), with the arguments that show the most.
const DEMOS = [['chapter_tiny/tiny_1_Soft_Lookup', []], ['chapter_tiny/tiny_2_No_Peeking', []],
               ['chapter_tiny/tiny_3_Several_Readers', []]];

// What is wrong with the page's layout at its present size: a list of one-line problems.
const MEASURE = `(() => {
  // Without a viewport line a phone lays a page out 980 px wide and shrinks it: sizes as seen are scaled.
  const problems = [], zoom = window.visualViewport.scale, width = Math.round(document.documentElement.clientWidth * zoom);
  if (!document.querySelector('meta[name=viewport]')) problems.push('no <meta name="viewport">: a phone shrinks the page');
  const shown = el => el.checkVisibility({checkOpacity: true, checkVisibilityCSS: true}) && el.getClientRects().length > 0;
  const scrolls = el => { for (let p = el.parentElement; p; p = p.parentElement) {
    const o = getComputedStyle(p).overflowX; if (o === 'auto' || o === 'scroll' || o === 'hidden') return true; } return false; };
  const name = el => el.tagName.toLowerCase() + (el.id ? '#' + el.id : '') +
    (el.textContent.trim() ? ' "' + el.textContent.trim().slice(0, 30) + '"' : '');
  if (document.documentElement.scrollWidth * zoom > width + 1)
    problems.push('the page is ' + Math.round(document.documentElement.scrollWidth * zoom) + ' px wide on a ' + width + ' px screen');
  for (const el of document.querySelectorAll('body *')) {
    if (!shown(el)) continue;
    const r = el.getBoundingClientRect(), box = {right: r.right * zoom, width: r.width * zoom, height: r.height * zoom};
    if (box.right > width + 1 && !scrolls(el) && getComputedStyle(el).overflowX === 'visible')
      problems.push(name(el) + ' reaches ' + Math.round(box.right) + ' px, past the screen');
    const text = [...el.childNodes].some(n => n.nodeType === 3 && n.textContent.trim());
    if (text) {
      let size = parseFloat(getComputedStyle(el).fontSize) * zoom;
      const svg = el.ownerSVGElement;
      if (svg && svg.viewBox.baseVal && svg.viewBox.baseVal.width)
        size *= svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
      if (size < 11 - 0.05) problems.push(name(el) + ' has text ' + size.toFixed(1) + ' px high');
    }
    const control = el.matches('input:not([type=hidden]), button, select, textarea, summary, a[href]');
    if (control) {
      // WCAG 2.5.8's inline exception: a link set in a sentence of text.
      const inline = el.matches('a') && getComputedStyle(el).display === 'inline' &&
        [...el.parentElement.childNodes].some(n => n !== el && n.nodeType === 3 && n.textContent.trim());
      if (!inline && (box.width < 24 - 0.5 || box.height < 24 - 0.5))
        problems.push(name(el) + ' is ' + Math.round(box.width) + ' x ' + Math.round(box.height) + ' px, under 24 x 24');
    }
  }
  return [...new Set(problems)].slice(0, 12);
})()`;

async function look(browser, label, url, shot) {
  const tab = await open(browser, 'about:blank');
  const problems = [];
  try {
    for (const [size, metrics] of [['phone', PHONE], ['desktop', DESKTOP]]) {
      await browser.send('Emulation.setDeviceMetricsOverride', metrics, tab.session);
      await browser.send('Emulation.setTouchEmulationEnabled', {enabled: metrics.mobile, maxTouchPoints: 5}, tab.session);
      await browser.send('Page.navigate', {url}, tab.session);
      const started = Date.now();
      let ready = false;
      while (!ready && Date.now() - started < RUN_MS) {
        await new Promise(r => setTimeout(r, 150));
        ready = await evaluate(browser, tab, `document.readyState === 'complete' &&
          (!document.getElementById('output') || document.getElementById('output').dataset.status !== undefined)`).catch(() => false);
      }
      if (!ready) problems.push(size + ': the page did not finish in ' + RUN_MS / 1000 + ' s');
      if (size === 'phone') problems.push(...(await evaluate(browser, tab, MEASURE)).map(p => 'phone: ' + p));
      const {data} = await browser.send('Page.captureScreenshot', {format: 'png', captureBeyondViewport: false}, tab.session);
      fs.mkdirSync(path.join(outdir, size), {recursive: true});
      fs.writeFileSync(path.join(outdir, size, shot + '.png'), Buffer.from(data, 'base64'));
    }
  } catch (e) { problems.push(String(e.stack || e)); }
  problems.push(...tab.errors.filter(e => e !== 'requested: ' + url));  // (opened from about:blank: the page itself)
  browser.listeners.delete(tab.listener);
  await browser.send('Target.closeTarget', {targetId: tab.target});
  console.log((problems.length ? 'FAILED: ' : 'ok: ') + label + problems.map(p => '\n      ' + p).join(''));
  return problems.length === 0;
}

async function main() {
  const pages = [];
  const walk = folder => {
    for (const entry of fs.readdirSync(path.join(web, folder), {withFileTypes: true}).sort((a, b) => a.name < b.name ? -1 : 1)) {
      const rel = path.posix.join(folder, entry.name);
      if (entry.isDirectory()) walk(rel);
      else if (entry.name.endsWith('.html') && (!only.length || only.includes(rel.slice(0, -5)))) pages.push(rel);
    }
  };
  walk('');
  const demos = fs.mkdtempSync(path.join(os.tmpdir(), 'phone-demos-'));
  for (const [program, args] of DEMOS) {
    if (only.length && !only.includes(program)) continue;
    const file = path.join(demos, path.basename(program) + '.html');
    const r = spawnSync(path.resolve(build, program), [...args, '--html', file], {encoding: 'utf8'});
    if (r.status !== 0) { console.log(`FAILED: ${program} --html: ${(r.stderr || r.error || '').toString().trim()}`); return false; }
    pages.push(file);
  }
  // The grader's page for a teacher, similarity.html, as make test's grader_similarity check wrote it.
  const graderPage = path.resolve(build, 'checks/similarity.html');
  if (!only.length) {
    if (!fs.existsSync(graderPage)) { console.log(`FAILED: no ${graderPage}: run make test first`); return false; }
    pages.push(graderPage);
  }
  const browser = new Browser(chromium);
  let passed = 0;
  try {
    await browser.send('Target.setDiscoverTargets', {discover: true});
    for (const page of pages) {
      const demo = path.isAbsolute(page);
      const url = 'file://' + (demo ? page : path.resolve(web, page));
      const shot = (demo ? 'demo-' + path.basename(page, '.html') : page.slice(0, -5)).replace(/\//g, '-');
      const label = page === graderPage ? 'the grader\'s similarity.html' : demo ? path.basename(page) + ' (--html)' : page;
      if (await look(browser, label, url, shot)) passed++;
    }
  } finally {
    await browser.close();
    fs.rmSync(demos, {recursive: true, force: true});
  }
  console.log(`\n${passed} of ${pages.length} pages fit a phone; screenshots in ${outdir}/phone and ${outdir}/desktop`);
  return passed === pages.length;
}

main().then(ok => process.exit(ok ? 0 : 1), e => { console.log('FAILED: ' + (e.stack || e)); process.exit(1); });
