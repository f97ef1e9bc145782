/** Whether `zone` is an IANA time zone this runtime knows (the store validates input without the app's time/ module). */
export function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-GB', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}
