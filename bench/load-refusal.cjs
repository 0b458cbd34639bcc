// autocannon's onResponse for bench/load.ts, run in its worker thread: a refusal must be the
// contract's (503 OVERLOADED with Retry-After and the error headers); anything else stops the run.
module.exports = function checkRefusal(status, _body, _context, headers) {
  if (status !== 503) return;
  const header = (name) => Object.entries(headers).find(([key]) => key.toLowerCase() === name)?.[1];
  if (!header('retry-after') || header('service-api-error-code') !== 'OVERLOADED' || !header('x-request-id')) {
    throw new Error(`a 503 without Retry-After and the error headers: ${JSON.stringify(headers)}`);
  }
};
