/**
 * The value of `work` if it arrives within `ms`; `undefined` if it fails or
 * comes later (for answers that are better without a detail than late, e.g.
 * help while the database does not answer). Never rejects.
 */
export async function valueWithin<T>(work: Promise<T>, ms: number): Promise<T | undefined> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), ms);
  });
  try {
    return await Promise.race([work.catch(() => undefined), late]);
  } finally {
    clearTimeout(timer);
  }
}
