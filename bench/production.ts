// `npm start` runs the service with NODE_ENV=production (src/scripts/start.mjs), and so do the
// benchmarks. Imported before anything else: graphql-js reads NODE_ENV once, when it is loaded.
process.env.NODE_ENV ??= 'production';
