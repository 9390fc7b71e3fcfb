//! Roadie's end-to-end tests live in `tests/e2e/`: they build and start the real `roadie`
//! binary, a throwaway `redis-server` and (for the docs) headless Chromium.
