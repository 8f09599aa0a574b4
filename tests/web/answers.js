// tests/web/answers.js: make web ANSWERS=hidden shows no line of any exercise's solution region.
// Every line of a region in the lessons and headers (but its STUB lines, blank lines and lines of
// under 12 characters, such as "}", and those found outside the regions too) is looked for, as the
// page escapes it, in every page of the hidden folder: none may be there. In the default folder some must be (else this finds nothing).
//
//   node tests/web/answers.js WEB HIDDEN_WEB
'use strict';
const fs = require('fs'), path = require('path');

const [web, hidden] = process.argv.slice(2);
const top = path.resolve(__dirname, '../..');
const escape = text => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

// A line that also stands outside every region (a loop header such as "for (int j = 0; j < T; j++)")
// gives nothing away, and is not looked for.
const lines = new Set(), outside = new Set();
const folders = fs.readdirSync(top).filter(f => /^(chapter|common)/.test(f));
for (const folder of [...folders, ...folders.map(f => f + '/studies').filter(f => fs.existsSync(path.join(top, f)))]) {
  for (const file of fs.readdirSync(path.join(top, folder)).filter(f => /\.(hpp|cpp)$/.test(f))) {
    let inside = false;
    for (const line of fs.readFileSync(path.join(top, folder, file), 'utf8').split('\n')) {
      if (/^\s*\/\/ BEGIN SOLUTION/.test(line)) inside = true;
      else if (/^\s*\/\/ END SOLUTION/.test(line)) inside = false;
      else if (!inside) outside.add(escape(line.trim()));
      else if (!/^\s*\/\/ STUB:/.test(line) && line.trim().length >= 12) lines.add(escape(line.trim()));
    }
  }
}
for (const line of outside) lines.delete(line);
const pages = dir => {
  const found = [];
  const walk = d => fs.readdirSync(d, {withFileTypes: true}).forEach(e =>
    e.isDirectory() ? walk(path.join(d, e.name)) : e.name.endsWith('.html') && found.push(path.join(d, e.name)));
  walk(dir);
  return found;
};
const hits = dir => {
  const list = [];
  for (const page of pages(dir)) {
    const text = new Set(fs.readFileSync(page, 'utf8').split('\n').map(l => l.trim()));  // whole lines, as shown
    for (const line of lines) if (text.has(line)) list.push(path.relative(dir, page) + ': ' + line.slice(0, 80));
  }
  return list;
};
const shownHits = hits(web), hiddenHits = hits(hidden);
let ok = true;
if (lines.size === 0 || shownHits.length === 0) {
  console.log(`FAILED: no solution line found in ${web}'s pages (${lines.size} lines looked for): ` +
              'this check would find nothing');
  ok = false;
}
if (pages(hidden).length !== pages(web).length) {
  console.log(`FAILED: ${hidden} has ${pages(hidden).length} pages, ${web} ${pages(web).length}`);
  ok = false;
}
for (const hit of hiddenHits.slice(0, 20)) console.log('FAILED: a solution line on a page for a class: ' + hit);
ok = ok && hiddenHits.length === 0;
console.log((ok ? 'ok: ' : 'FAILED: ') + `${lines.size} solution lines: ${shownHits.length} shown in ${web}, ` +
            `${hiddenHits.length} in ${hidden}'s ${pages(hidden).length} pages`);
process.exit(ok ? 0 : 1);
