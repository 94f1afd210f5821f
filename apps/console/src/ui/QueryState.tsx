/** A failed query's or mutation's message, announced. */
export function ErrorAlert({ error }: { error: Error | null }) {
  return error ? <p role="alert">{error.message}</p> : null;
}

/** What LoadMore needs of an infinite query (TanStack Query's useInfiniteQuery result). */
interface Pages {
  hasNextPage: boolean;
  isFetchingNextPage: boolean;
  fetchNextPage: () => Promise<unknown>;
}

/** "Load more" while an infinite query has a next page; disabled while it is being fetched. */
export function LoadMore({ pages, label = 'Load more' }: { pages: Pages; label?: string }) {
  if (!pages.hasNextPage) return null;
  return (
    <button type="button" className="secondary" onClick={() => void pages.fetchNextPage()} disabled={pages.isFetchingNextPage}>
      {pages.isFetchingNextPage ? 'Loading…' : label}
    </button>
  );
}
