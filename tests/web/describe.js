// tests/web/describe.js: what make web's pages and index say about a program,
// read from the program itself: its opening comment and its --help text.
'use strict';

// The opening comment: "// name.cpp: what it shows" (one paragraph) and "// Book section: X".
// `what` is that paragraph's first sentence, or its first two when the first is short.
function about(source, name) {
  const lines = source.split('\n');
  const comment = [];
  for (const line of lines) {
    if (!line.startsWith('//')) break;
    comment.push(line.replace(/^\/\/ ?/, ''));
  }
  const section = (comment.find(l => l.startsWith('Book section:')) || '').replace('Book section:', '').trim();
  const paragraph = [];
  for (const line of comment) {
    if (line.trim() === '' || line.startsWith('Book section:')) break;
    paragraph.push(line.trim());
  }
  let text = paragraph.join(' ');
  text = text.slice(text.indexOf(': ') + 2);  // after "name.cpp: "
  let what = '';
  for (const sentence of text.split(/(?<=\.) (?=[A-Z])/)) {
    what += (what ? ' ' : '') + sentence;
    if (what.length >= 40) break;
  }
  return {section, what: what.charAt(0).toUpperCase() + what.slice(1), name};
}

// The options of a usage text: lines "  --name VALUE   what it does", with any
// deeper-indented lines after them; VALUE is a word in capitals (N, X, FILE, X,Y).
// --help and --interactive (a terminal's feature) are left out.
function options(help) {
  const found = [];
  let last = null;
  for (const line of help.split('\n')) {
    const m = line.match(/^\s+(--?[A-Za-z][\w-]*)(?:[ =]([A-Z][A-Z0-9_,]*))?(?=\s|$)\s*(.*)$/);
    if (m) {
      last = {name: m[1], value: m[2] || '', help: m[3].trim()};
      if (!['--help', '-h', '--interactive'].includes(last.name) && !found.some(o => o.name === last.name)) found.push(last);
    } else if (last && /^\s+\S/.test(line)) {
      last.help += ' ' + line.trim();
    } else {
      last = null;
    }
  }
  return found;
}

module.exports = {about, options};
