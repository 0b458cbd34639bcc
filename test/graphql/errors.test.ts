import { GraphQLError } from 'graphql';
import { describe, expect, it } from 'vitest';
import { argumentProblem, maskError } from '../../src/graphql/errors.ts';
import { ArgumentError, AuthenticationError, PermissionError, UnavailableError } from '../../src/errors.ts';

const asGraphQL = (error: GraphQLError) => ({ message: error.message, path: error.path, extensions: error.extensions });

describe('maskError', () => {
  it('masks an unexpected error as INTERNAL_ERROR, keeping its path and giving the request id', () => {
    const plain = maskError(new Error('connection string postgres://secret@db leaked')) as GraphQLError;
    expect(asGraphQL(plain)).toEqual({ message: 'Unexpected error', path: undefined, extensions: { code: 'INTERNAL_ERROR' } });
    const wrapped = new GraphQLError('boom', { path: ['me'], originalError: new TypeError('x is undefined') });
    expect(asGraphQL(maskError(wrapped, 'req-1') as GraphQLError)).toEqual({
      message: 'Unexpected error',
      path: ['me'],
      extensions: { code: 'INTERNAL_ERROR', requestId: 'req-1' },
    });
  });

  it('passes service errors on with their code, status and argument', () => {
    const argument = maskError(new GraphQLError('wrapped', { path: ['createUser'], originalError: new ArgumentError('email', 'must be an email address') }));
    expect(asGraphQL(argument as GraphQLError)).toEqual({
      message: "Argument 'email': must be an email address",
      path: ['createUser'],
      extensions: { code: 'INVALID_ARGUMENT', status: 403, argument: 'email' },
    });
    expect(asGraphQL(maskError(new GraphQLError('x', { path: ['user'], originalError: new PermissionError('You do not manage this user') })) as GraphQLError)).toEqual({
      message: 'You do not manage this user',
      path: ['user'],
      // A refusal during execution leaves the status of the response (other fields may have data) alone.
      extensions: { code: 'PERMISSION_DENIED', status: 403 },
    });
    // Credentials are refused before execution: the response itself is a 401.
    const auth = maskError(new AuthenticationError('MISSING_CREDENTIALS', 'Application credentials (app and secret) are required')) as GraphQLError;
    expect(auth.extensions).toEqual({ code: 'MISSING_CREDENTIALS', status: 401, http: { status: 401 } });
    const maintenance = maskError(new UnavailableError(120)) as GraphQLError;
    expect(maintenance.extensions).toEqual({ code: 'MAINTENANCE', status: 503, retryAfter: 120, http: { status: 503, headers: { 'Retry-After': '120' } } });
  });

  it('leaves errors of the operation itself to the client, but masks schema faults', () => {
    const syntax = new GraphQLError('Syntax Error: Expected Name, found <EOF>.');
    expect(maskError(syntax)).toBe(syntax);
    const scalar = new GraphQLError('Value is not a valid email address', { originalError: new GraphQLError('Value is not a valid email address') });
    expect(maskError(scalar)).toBe(scalar);
    const schemaFault = new GraphQLError('Unknown has not been implemented');
    Object.defineProperty(schemaFault, 'name', { value: 'PothosSchemaError' });
    expect((maskError(new GraphQLError('x', { originalError: schemaFault })) as GraphQLError).extensions.code).toBe('INTERNAL_ERROR');
  });
});

describe('argumentProblem', () => {
  it("names the argument of graphql's variable errors as the service would", () => {
    expect(argumentProblem('Variable "$user" of required type "ID!" was not provided.')).toEqual({ code: 'MISSING_ARGUMENT', argument: 'user' });
    expect(argumentProblem('Variable "$user" of non-null type "ID!" must not be null.')).toEqual({ code: 'MISSING_ARGUMENT', argument: 'user' });
    expect(
      argumentProblem('Variable "$input" got invalid value { username: "abcd" }; Field "firstName" of required type "String!" was not provided.'),
    ).toEqual({ code: 'MISSING_ARGUMENT', argument: 'firstName' });
    expect(argumentProblem('Variable "$input" got invalid value null at "input.firstName"; Expected non-nullable type "String!" not to be null.')).toEqual({
      code: 'MISSING_ARGUMENT',
      argument: 'firstName',
    });
    expect(argumentProblem('Variable "$input" got invalid value "nope" at "input.email"; Value is not a valid email address: nope')).toEqual({
      code: 'INVALID_ARGUMENT',
      argument: 'email',
    });
    expect(argumentProblem('Variable "$first" got invalid value "ten"; Int cannot represent non-integer value: "ten"')).toEqual({
      code: 'INVALID_ARGUMENT',
      argument: 'first',
    });
    expect(argumentProblem('Cannot query field "nope" on type "Query".')).toBeUndefined();
  });
});
