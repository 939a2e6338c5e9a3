import { badRequest } from '../../http/errors.ts';

export { badRequest, notFound } from '../../http/errors.ts';

/** A `before` cursor that this API did not hand out. */
export const invalidCursor = () => badRequest('Some fields need attention.', { before: ['Not a valid cursor.'] });
