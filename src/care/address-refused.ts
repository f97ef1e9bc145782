/** The `code` of the error a connection refused by the client's address rule fails with (never retried). */
export const ADDRESS_REFUSED_CODE = 'ERR_CARE_ADDRESS_REFUSED';

/** That error: raised before any connection is made, so it says nothing of what listens at the address. */
export function addressRefused(host: string): Error {
  return Object.assign(new Error(`connecting to ${host} is not allowed`), { code: ADDRESS_REFUSED_CODE });
}
