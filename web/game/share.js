// Sharing the game shown: a link to it at the step shown (`/g/ID?step=N`
// opens the replay there), through the device's share sheet where it has
// one, else copied; and an image of the position, the board drawn to a
// PNG file; and the analysis board opened at the position shown.

import { t } from '../i18n.js';
import { toast } from '../ui.js';
import { buildFrames } from './state.js';
import { ready } from '../local/backend.js';
import { navigate } from '../nav.js';

/** The step shown: the replay's, or the last one. */
const stepShown = (S) => (S.frame !== null ? S.frame : S.view.history.length);

/** The link to game `S.id` at the step shown. */
export function shareUrl(S) {
  return new URL(`/g/${S.id}?step=${stepShown(S)}`, location.origin).href;
}

async function shareLink(G) {
  const { S } = G;
  if (!S.view) return;
  const url = shareUrl(S);
  const title = t('share.title', { id: S.id, step: stepShown(S) });
  if (navigator.share) {
    try { await navigator.share({ title, url }); return; } catch (err) {
      if (err && err.name === 'AbortError') return;
    }
  }
  try {
    await navigator.clipboard.writeText(url);
  } catch { /* no clipboard here: the toast shows the link */ }
  toast(t('share.copied', { url }));
}

// The properties the board's look takes from the style sheet, written on
// the copy drawn to the image (an image has no style sheet).
const PROPS = ['fill', 'stroke', 'stroke-width', 'stroke-dasharray', 'opacity', 'display', 'font-size', 'font-weight',
  'font-family', 'paint-order', 'visibility'];

/** The board as a stand-alone SVG document: its look written on each element. */
function boardSvg(svg) {
  const copy = svg.cloneNode(true);
  const from = [svg, ...svg.querySelectorAll('*')];
  const to = [copy, ...copy.querySelectorAll('*')];
  from.forEach((el, k) => {
    const cs = getComputedStyle(el);
    for (const p of PROPS) to[k].setAttribute(p, cs.getPropertyValue(p));
  });
  const [, , w, h] = svg.getAttribute('viewBox').split(' ').map(Number);
  copy.setAttribute('width', w);
  copy.setAttribute('height', h);
  copy.removeAttribute('style');
  copy.setAttribute('xmlns', 'http://www.w3.org/2000/svg');
  return { text: new XMLSerializer().serializeToString(copy), w, h };
}

/** Saves an image (PNG) of the board as shown. */
async function shareImage(G) {
  const { S } = G;
  if (!S.board) return;
  const { text, w, h } = boardSvg(S.board.svg);
  const img = new Image();
  await new Promise((resolve, reject) => {
    img.onload = resolve;
    img.onerror = reject;
    img.src = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(text)}`;
  });
  const canvas = document.createElement('canvas');
  canvas.width = w;
  canvas.height = h;
  const ctx = canvas.getContext('2d');
  ctx.fillStyle = getComputedStyle(document.body).backgroundColor || '#f6efe3';
  ctx.fillRect(0, 0, w, h);
  ctx.drawImage(img, 0, 0, w, h);
  const a = document.createElement('a');
  a.href = canvas.toDataURL('image/png');
  a.download = `hoyito-${S.id}-${stepShown(S)}.png`;
  document.body.append(a);
  a.click();
  a.remove();
}

/** Opens the analysis board at the position shown (the replay's step, or the last). */
async function analyseHere(G) {
  const { S } = G;
  if (!S.view) return;
  const frame = buildFrames(S.view)[stepShown(S)];
  if (!frame) return;
  await ready();
  const { analysisPath } = await import('../pages/board.js');
  const last = S.view.state;
  navigate(analysisPath(S.view.rules, {
    board: frame.board, closed: frame.closed || [], captured: frame.captured, toMove: frame.toMove || last.to_move || 'south',
  }));
}

/** Wires the menu's Share buttons and Analyse from here. */
export function bindShare(G) {
  G.$('analyse-here').addEventListener('click', () => analyseHere(G).catch(() => toast(t('board.unavailable'), 'error')));
  G.$('share-link').addEventListener('click', () => shareLink(G));
  G.$('share-image').addEventListener('click', () => shareImage(G).catch(() => toast(t('share.failed'), 'error')));
}
