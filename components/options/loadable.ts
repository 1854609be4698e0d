/** Something the page asks the host for: not asked yet, on its way, here, or refused with a reason. */
export type Loadable<T> = { state: 'idle' } | { state: 'loading' } | { state: 'ready'; value: T } | { state: 'error'; message: string };
