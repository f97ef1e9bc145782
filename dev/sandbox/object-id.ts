/**
 * ObjectId-like ids: 24 lowercase hex characters, the first 8 the creation
 * time in Unix seconds, then 10 characters of per-generator randomness and a
 * 6-character counter (as MongoDB does), so ids sort by creation time.
 */
import { flatString } from './wire-time.js';

export const OBJECT_ID = /^[0-9a-f]{24}$/;

export function isObjectId(value: string): boolean {
  return OBJECT_ID.test(value);
}

export class ObjectIdFactory {
  private counter: number;
  private readonly middle: string;

  constructor(hex: (length: number) => string) {
    this.middle = hex(10);
    this.counter = parseInt(hex(6), 16);
  }

  next(createdMs: number): string {
    this.counter = (this.counter + 1) % 0x1000000;
    const seconds = Math.max(0, Math.floor(createdMs / 1000));
    return flatString(seconds.toString(16).padStart(8, '0').slice(-8) + this.middle + this.counter.toString(16).padStart(6, '0'));
  }
}
