/**
 * Tiny stand-in for the npm package cuss's index.js (word: how surely it is profane, 0-2): COG is
 * rated but WordNet knows it, so it stays clean; a phrase key is skipped.
 */
export const cuss = {
  cog: 2,
  'two words': 2,
  mouse: 0
}
