/**
 * The connection type every store module takes. It lives apart from database.ts (which opens and validates the
 * file) so that the modules database.ts itself uses, migrations and statements, need not import it back.
 */
import type Database from 'better-sqlite3';

export type MorphDatabase = Database.Database;
