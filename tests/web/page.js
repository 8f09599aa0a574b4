// tests/web/page.js: one program's page, from tests/web/page.html (make web; tests/web/web.mk).
//
//   node tests/web/page.js FOLDER/PROGRAM PROGRAM.js NATIVE_PROGRAM OUT.html
//
// The page holds the program's source and the project's headers it includes (from
// em++'s list in PROGRAM.js.d; the machinery among them only named), its --help
// text and its options as form fields, both from the native program's own --help (so the page and --help cannot
// disagree), and the compiled program itself, with tests/web/worker.js to run it.
'use strict';
const fs = require('fs'), path = require('path');
const {execFileSync} = require('child_process');
const describe = require('./describe.js');

const [program, js, native, out] = process.argv.slice(2);
const here = __dirname, top = path.resolve(here, '../..');
const name = path.basename(program), folder = path.dirname(program);
const escape = text => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
// What the page itself holds (not the sources it shows, whose URLs are only
// text) names no other site: a page fetches nothing.
function noUrl(text, what) {
  const url = text.match(/\b(https?|wss?|ftp):\/\/\S*/i);
  if (url) throw new Error(what + ' holds a URL: ' + url[0]);
  return text;
}
// A script kept as text in the page must not end it early.
function asScriptText(text, what) {
  if (/<\/script|<!--/i.test(text)) throw new Error(what + ' holds </script or <!--, which would end the page\'s script');
  return noUrl(text, what);
}

const source = fs.readFileSync(path.join(top, program + '.cpp'), 'utf8');
const about = describe.about(source, name);

// ANSWERS=hidden (a class's pages): each exercise's solution region is shown as the handout has
// it, its TODO and stub (tests/grader/lib.sh's cut_solutions), and a line naming the exercise.
// The program on the page was compiled from the full source, so it prints the same digits.
function shownText(file) {
  if (process.env.ANSWERS !== 'hidden') return fs.readFileSync(path.join(top, file), 'utf8');
  const cut = execFileSync('bash', ['-c', '. tests/grader/lib.sh && cut_solutions "$1"', 'cut', file], {cwd: top, encoding: 'utf8'});
  return cut.replace(/^([ \t]*)(\/\/ TODO: )(?:exercise ([^ :]+): ?)?(.*)$/gm, (line, indent, todo, id, what) =>
    `${indent}// (hidden: the answer to exercise ${id || 'of this file'} is left to the student)\n${indent}${todo}${what}`);
}

// --help, run natively; a program without options prints its normal output to it.
const help = execFileSync(native, ['--help'], {encoding: 'utf8', env: {...process.env, NO_COLOR: '1'}});
const options = help.startsWith('usage:') ? describe.options(help) : [];
let fields = options.map(o => {
  const id = 'option' + o.name;
  const input = o.value ? `<input type="text" id="${id}" name="${o.name}" placeholder="${escape(o.value)}">`
                        : `<input type="checkbox" id="${id}" name="${o.name}">`;
  return `<div class="option"><label for="${id}">${o.name}${o.value ? ' ' + escape(o.value) : ''}</label>${input}` +
         `<span class="help">${escape(o.help)}</span></div>`;
}).join('\n');
if (!fields) fields = '<p class="note">It takes no options.</p>';

// The project's headers the compile read, in the order em++ listed them.
const deps = fs.readFileSync(js + '.d', 'utf8').replace(/\\\n/g, ' ').split('\n')[0].split(/\s+/).slice(2);
const headers = [...new Set(deps.map(d => path.relative(top, path.resolve(top, d)))
  .filter(d => d.endsWith('.hpp') && !d.startsWith('..') && !path.isAbsolute(d)))];
// Machinery (options, terminal, files, pictures) is named, not shown: the page
// shows the lesson and the maths it calls, and stays under 1.5 MB gzipped in all.
const machinery = {
  'common/cli.hpp': 'options and errors', 'common/platform.hpp': 'the terminal and files',
  'common/plot.hpp': 'charts and pictures', 'common/keys.hpp': 'the keyboard',
  'chapter_tiny/tiny_model_path.hpp': 'finding the checkpoint', 'chapter_tiny/tiny_pictures.hpp': 'pictures',
  'chapter_tiny/tiny_lookup_pictures.hpp': 'pictures',
};
const shown = headers.filter(h => !(h in machinery)), named = headers.filter(h => h in machinery);
const headerHtml = shown.map(h =>
  `<details><summary>${escape(h)}</summary><pre>${escape(shownText(h))}</pre></details>`).join('\n');
const machineryHtml = named.length ? '<p class="note">It also includes, from the repository: ' +
  named.map(h => `${escape(h)} (${machinery[h]})`).join(', ') + '.</p>' : '';

// Above the program, its chapter README's words for it: one source for both. The README gives each file a
// table row (its last cell) or a list item ("- `file.cpp` (15.3): words", wrapped onto indented lines).
// Inline `code` and **bold** as Markdown has them; the rest as text.
const chapter = folder.split('/')[0];
const markdown = text => escape(text).replace(/`([^`]+)`/g, '<code>$1</code>').replace(/\*\*([^*]+)\*\*/g, '<b>$1</b>');
const readmeLines = fs.readFileSync(path.join(top, chapter, 'README.md'), 'utf8').split('\n');
const names = line => line.includes('`' + name + '.cpp`') || line.includes('/' + name + '.cpp`');
const readmeRow = readmeLines.find(line => line.startsWith('|') && names(line));
const itemAt = readmeLines.findIndex(line => line.startsWith('- `') && names(line.split(':')[0]));
let readmeWords = readmeRow ? readmeRow.split('|').map(c => c.trim()).filter(Boolean).pop() : '';
if (!readmeWords && itemAt >= 0) {
  const item = [readmeLines[itemAt]];
  for (let i = itemAt + 1; i < readmeLines.length && /^  \S/.test(readmeLines[i]); i++) item.push(readmeLines[i].trim());
  readmeWords = item.join(' ').replace(/^- `[^`]+`( \([^)]*\))?: /, '');
}
if (!readmeWords) {  // a README rewritten into another shape would otherwise drop every page's words unseen
  console.error(`tests/web/page.js: ${chapter}/README.md names no \`${name}.cpp\` in a table row or a list item`);
  process.exit(2);
}
// The README itself, where the repository is beside the pages (build/web/<chapter>/ in a checkout).
const readmeHref = '../'.repeat(program.split('/').length + 1) + chapter + '/README.md';
const readmeLink = `<a href="${escape(readmeHref)}">${escape(chapter)}/README.md</a>`;
const aboutHtml = readmeWords ? `<p class="readme">${markdown(readmeWords)} ` +
  `<span class="note">(${readmeLink})</span></p>` : '';

// Beside the output, make book's rows for it (tests/fixtures/book_claims.tsv, tests/book.sh): the
// book's words, the line of ours that holds its figure (from the golden), and same or ours with why.
const claims = fs.readFileSync(path.join(top, 'tests/fixtures/book_claims.tsv'), 'utf8').split('\n')
  .filter(line => line && !line.startsWith('#')).map(line => line.split('\t'))
  .filter(([golden]) => golden === program || golden.startsWith(program + '@'));
const bookRows = claims.map(([golden, text, said, why]) => {
  const goldenFile = path.join(top, 'tests/golden', golden + '.txt');
  const line = fs.existsSync(goldenFile) ? (fs.readFileSync(goldenFile, 'utf8').split('\n').find(l => l.includes(text)) || text) : text;
  const args = fs.existsSync(path.join(top, 'tests/golden', golden + '.args')) ?
    fs.readFileSync(path.join(top, 'tests/golden', golden + '.args'), 'utf8').trim() : '';
  return `<tr><td>${escape(said)}</td><td><code>${escape(line.trim())}</code>${args ? ` <span class="note">(with ${escape(args)})</span>` : ''}</td>` +
         `<td>${why ? 'ours' : 'same'}</td><td>${escape(why || '')}</td></tr>`;
});
const bookHtml = bookRows.length ? `<details class="book" open><summary>Beside the book (make book): ` +
  `${claims.filter(c => !c[3]).length} the same, ${claims.filter(c => c[3]).length} ours on purpose</summary>` +
  `<div class="scroll"><table><thead><tr><th>The book (section: what it says)</th><th>Our program prints</th><th></th>` +
  `<th>Why ours differs</th></tr></thead><tbody>\n${bookRows.join('\n')}\n</tbody></table></div>` +
  `<p class="note">${readmeLink} says more on each difference.</p></details>` : '';

// What the browser cannot do that the terminal can.
const notes = [];
if (/std::thread\b/.test(source)) notes.push('The browser build has one thread: what starts threads (--threads, --search) stops with an error here.');
if (/--interactive/.test(help)) notes.push('--interactive is for a terminal; the --html page plays its part here.');
if (/--load|--model/.test(help)) notes.push('The program runs in a folder of its own: it reads only the files packed in with it and those it wrote in the same run.');

const fill = {
  NAME: escape(name), NAME_JSON: JSON.stringify(name), WHAT: escape(about.what), FOLDER: escape(folder),
  CHAPTER: escape(folder.split('/')[0]), SECTION: about.section ? ' · section ' + escape(about.section) : '',
  FOLDERS_JSON: JSON.stringify(options.filter(o => /^(DIR|FOLDER|FILE)$/.test(o.value))
    .map(o => [o.name, o.value === 'FILE' ? 'file' : 'dir'])),
  NATIVE_JSON: JSON.stringify(`make build/${program} && build/${program}`),
  ABOUT: aboutHtml, BOOK: bookHtml, NATIVE: escape(`make build/${program} && build/${program}`),
  OPTIONS: fields, HELP: help.startsWith('usage:') ? escape(help) : 'It takes no options, and prints its output for --help too.', SOURCE: escape(shownText(program + '.cpp')), HEADERS: headerHtml + machineryHtml,
  NOTE: notes.map(n => `<p class="note">${escape(n)}</p>`).join('\n  '),
  WORKER: asScriptText(fs.readFileSync(path.join(here, 'worker.js'), 'utf8'), 'worker.js'),
  PROGRAM: asScriptText(fs.readFileSync(js, 'utf8'), js),
};
const template = noUrl(fs.readFileSync(path.join(here, 'page.html'), 'utf8'), 'page.html');
// Split and join rather than replace, whose $ patterns the program's text might hold.
const page = template.split(/\{\{([A-Z_]+)\}\}/).map((part, i) => {
  if (i % 2 === 0) return part;
  if (!(part in fill)) throw new Error('page.html: no value for {{' + part + '}}');
  return fill[part];
}).join('');
fs.writeFileSync(out + '.part', page);
fs.renameSync(out + '.part', out);
