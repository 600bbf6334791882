// A small Markdown renderer for the rules page: headings, paragraphs,
// nested lists, emphasis, code and links. Input is escaped first (quotes
// too, so a link's address stays inside its attribute).

import { esc } from './html.js';

function inline(text) {
  return esc(text)
    .replace(/`([^`]+)`/g, '<code>$1</code>')
    .replace(/\*\*([^*]+)\*\*/g, '<strong>$1</strong>')
    .replace(/(^|[^*\w])\*([^*\s][^*]*)\*/g, '$1<em>$2</em>')
    .replace(/\[([^\]]+)\]\(([^)\s]+)\)/g, (m, label, href) =>
      /^(https?:|\/|#)/.test(href) ? `<a href="${href}">${label}</a>` : label);
}

function slug(text) {
  return text.toLowerCase().replace(/[^\w]+/g, '-').replace(/^-|-$/g, '');
}

/** Renders Markdown text to HTML. */
export function renderMarkdown(src) {
  const lines = src.replace(/\r\n?/g, '\n').split('\n');
  const out = [];
  let para = [];
  const stack = []; // open lists: {indent, tag}
  let item = false; // an <li> is open at the top of the stack
  const flushPara = () => {
    if (para.length) {
      out.push(`<p>${inline(para.join(' '))}</p>`);
      para = [];
    }
  };
  const closeLists = (indent) => {
    while (stack.length && stack[stack.length - 1].indent >= indent) {
      out.push(`</li></${stack.pop().tag}>`);
    }
  };
  for (const raw of lines) {
    const line = raw.replace(/\s+$/, '');
    const h = /^(#{1,6})\s+(.*)$/.exec(line);
    const li = /^(\s*)([-*]|\d+\.)\s+(.*)$/.exec(line);
    if (!line.trim()) {
      flushPara();
      continue;
    }
    if (h) {
      flushPara();
      closeLists(0);
      const level = h[1].length;
      out.push(`<h${level} id="${slug(h[2])}">${inline(h[2])}</h${level}>`);
      continue;
    }
    if (li) {
      flushPara();
      const indent = li[1].length;
      const tag = /\d/.test(li[2]) ? 'ol' : 'ul';
      const top = stack[stack.length - 1];
      if (!top || indent > top.indent) {
        out.push(`<${tag}><li>`);
        stack.push({ indent, tag });
      } else {
        closeLists(indent + 1);
        out.push('</li><li>');
      }
      out.push(inline(li[3]));
      item = true;
      continue;
    }
    if (stack.length && /^\s+/.test(raw) && item) {
      out.push(' ' + inline(line.trim()));
      continue;
    }
    closeLists(0);
    item = false;
    para.push(line.trim());
  }
  flushPara();
  closeLists(0);
  return out.join('\n');
}
