// tests/web/index.js: make web's index.html, every page in book order.
//
//   node tests/web/index.js WEB FOLDER/PROGRAM...
//
// Book order is make run's (tests/lessons.sh: folder, then section); a program
// with no book section (a study, the generator) comes after its chapter's lessons.
// Each row: chapter, section, the program and what it shows, from its opening comment.
'use strict';
const fs = require('fs'), path = require('path');
const {execFileSync} = require('child_process');
const describe = require('./describe.js');

const [web, ...programs] = process.argv.slice(2);
const top = path.resolve(__dirname, '../..');
const escape = text => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const chapterOf = program => program.split('/')[0];

const lessons = execFileSync('bash', [path.join(top, 'tests/lessons.sh')], {encoding: 'utf8'})
  .split('\n').filter(Boolean).map(line => line.split('\t')[0]).filter(p => programs.includes(p));
const chapters = [...new Set([...lessons, ...programs].map(chapterOf))];
const ordered = [];
for (const chapter of chapters) {
  ordered.push(...lessons.filter(p => chapterOf(p) === chapter));
  ordered.push(...programs.filter(p => chapterOf(p) === chapter && !lessons.includes(p)).sort());
}

const rows = ordered.map(program => {
  const about = describe.about(fs.readFileSync(path.join(top, program + '.cpp'), 'utf8'), path.basename(program));
  const kind = program.includes('/studies/') ? 'study' : about.section ? '' : 'tool';
  return `<tr><td>${escape(chapterOf(program))}</td><td>${escape(about.section || kind)}</td>` +
         `<td><a href="${escape(program)}.html">${escape(path.basename(program))}</a></td><td>${escape(about.what)}</td></tr>`;
});

const page = `<!DOCTYPE html>
<!-- Made by make web (tests/web/index.js). -->
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>The programs of the attention chapters, in the browser</title>
<style>
  body { font-family: system-ui, sans-serif; margin: 1em; color: #222; max-width: 70em; }
  table { border-collapse: collapse; }
  td, th { text-align: left; vertical-align: top; padding: 0.25em 0.6em; border-bottom: 1px solid #e4e4e4; }
  td:nth-child(3) { font-family: ui-monospace, "DejaVu Sans Mono", monospace; white-space: nowrap; }
  td a { display: inline-block; min-height: 24px; }
  /* A phone: each program a block of its own, its name first, the chapter and section beside it. */
  @media (max-width: 40em) {
    body { margin: 0.6em; }
    thead { display: none; }
    table, tbody, tr, td { display: block; }
    tr { padding: 0.4em 0; border-bottom: 1px solid #e4e4e4; display: flex; flex-wrap: wrap; gap: 0 0.6em; }
    td { border: 0; padding: 0; }
    td:nth-child(3) { order: -1; flex-basis: 100%; white-space: normal; overflow-wrap: anywhere; }
    td:nth-child(3) a { min-height: 44px; line-height: 44px; }
    td:nth-child(1), td:nth-child(2) { color: #555; font-size: 0.9em; }
    td:nth-child(4) { flex-basis: 100%; }
  }
</style>
</head>
<body>
<h1>The programs of the attention chapters, in the browser</h1>
<p>Each page shows a program's source and runs it here, compiled to WebAssembly: the same
digits as the book's, with no compiler. Its options are form fields; a link with
<code>?args=</code> runs it with those arguments. It needs WebAssembly with SIMD: Chrome or Firefox
from 2021 on, Safari from 16.4 (2023). The exercises are not here: they are in the handout.
<code>tiny_train</code> is not here either: it trains for minutes on several threads and needs the
training text, so it runs from a terminal (<code>make train-tiny</code>).</p>
<table>
<thead><tr><th>Chapter</th><th>Section</th><th>Program</th><th>What it shows</th></tr></thead>
<tbody>
${rows.join('\n')}
</tbody>
</table>
</body>
</html>
`;
fs.writeFileSync(path.join(web, 'index.html.part'), page);
fs.renameSync(path.join(web, 'index.html.part'), path.join(web, 'index.html'));
