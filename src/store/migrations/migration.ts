/** One numbered schema change, written once per dialect with the same meaning. */
export interface Migration {
  /** 1, 2, 3, ... with no gaps; the file is named NNN-name.ts. */
  readonly version: number;
  readonly name: string;
  /** Statements for SQLite (run with exec, inside one transaction). */
  readonly sqlite: string;
  /** Statements for PostgreSQL (run inside one transaction, under an advisory lock). */
  readonly postgres: string;
}
