// Ratings as the pages show them (docs/API.md, "Ratings"): the pools (a
// variant on the standard 2×6 board and a time class), a rating with "?"
// while it is provisional, a change "+12" or "−12", a player's page address.

import { t } from './i18n.js';

/** The variants, in order. */
export const VARIANTS = ['I', 'II', 'III'];

/** The time classes, in order (the server's `TimeClass`). */
export const CLASSES = ['bullet', 'blitz', 'rapid', 'classical', 'correspondence', 'untimed'];

/** A rating is provisional while its deviation is above this (the server's `PROVISIONAL_DEVIATION`). */
export const PROVISIONAL = 110;

/** The variant and the time class of pool `name` ("II-blitz"), or null if it is none. */
export function parsePool(name) {
  const m = /^(I|II|III)-([a-z]+)$/.exec(String(name || ''));
  return m && CLASSES.includes(m[2]) ? { variant: m[1], cls: m[2] } : null;
}

/** "Hoyito II · Blitz": the pool's name in the reader's language. */
export function poolLabel(name) {
  const p = parsePool(name);
  return p ? `Hoyito ${p.variant} · ${t(`class.${p.cls}`)}` : String(name);
}

/**
 * The time class of a game with clock `clock` (the request's `{initial,
 * increment}` or `{days}`, or none), as the server reckons it: the
 * estimated duration `initial + 40 × increment` seconds.
 */
export function timeClass(clock) {
  if (!clock) return 'untimed';
  if (clock.days > 0) return 'correspondence';
  const estimate = (clock.initial || 0) + 40 * (clock.increment || 0);
  if (estimate <= 0) return 'untimed';
  if (estimate < 180) return 'bullet';
  if (estimate < 480) return 'blitz';
  if (estimate < 1500) return 'rapid';
  return 'classical';
}

/** Whether a rating of deviation `deviation` is provisional. */
export const provisional = (deviation) => deviation > PROVISIONAL;

/** "1662", or "1662?" while provisional. */
export const ratingText = (rating, deviation) => `${Math.round(rating)}${provisional(deviation) ? '?' : ''}`;

/** The change from `before` to `after` as shown ("+162", "−12", "±0"): the difference of the rounded ratings, so that the numbers shown add up. */
export function changeText(before, after) {
  const d = Math.round(after) - Math.round(before);
  return d > 0 ? `+${d}` : d < 0 ? `−${-d}` : '±0';
}

/** "1500? → 1662? (+162)": a rating change (`{before, after, deviation_before, deviation_after}`). */
export const changeLine = (c) => `${ratingText(c.before, c.deviation_before)} → ${ratingText(c.after, c.deviation_after)} (${changeText(c.before, c.after)})`;

/** The address of the page of the player named `name`. */
export const playerPath = (name) => `/@/${encodeURIComponent(name)}`;
