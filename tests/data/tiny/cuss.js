/**
 * Tiny stand-in for the npm package cuss's index.js (word: how surely it is profane, 0-2): COG is
 * rated 1 (unsure), which alone flags nothing; a phrase key is skipped.
 */
export const cuss = {
  cog: 1,
  'two words': 2,
  mouse: 0
}
