/**
 * TEMPORARY, branch `retention` only: versions 9-11 belong to other branches' migrations, which this
 * branch does not have; the migrator wants no gaps, so these three do nothing. Drop this file (and its
 * lines in index.ts) when merging: the real 009-011 take their places.
 */
import type { Migration } from './migration.js';

const nothing = (version: number): Migration => ({ version, name: `placeholder-${version}`, sqlite: 'SELECT 1;', postgres: 'SELECT 1;' });

export const migration009 = nothing(9);
export const migration010 = nothing(10);
export const migration011 = nothing(11);
