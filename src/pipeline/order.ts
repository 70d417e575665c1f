/**
 * Registry order (the original design): `dispatch_order` ascending, classifiers without one last, and
 * otherwise the order given (stable). It is the order the worker pool starts classifiers in and
 * the order reserved-field ties are settled in.
 */
export function sortByDispatchOrder<T extends { readonly dispatchOrder: number | undefined }>(
  items: readonly T[],
): T[] {
  return items
    .map((item, index) => ({ item, index }))
    .sort(
      (a, b) =>
        (a.item.dispatchOrder ?? Number.POSITIVE_INFINITY) -
          (b.item.dispatchOrder ?? Number.POSITIVE_INFINITY) || a.index - b.index,
    )
    .map(({ item }) => item);
}
