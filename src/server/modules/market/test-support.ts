/** Helpers the market's HTTP tests share. */
export type ApiErr = { error: { code: string; message: string; fields?: Record<string, string[]> } };
export const json = async <T>(res: Response) => (await res.json()) as T;
export const codeOf = async (res: Response) => (await json<ApiErr>(res)).error.code;
export const errOf = async (res: Response) => (await json<ApiErr>(res)).error;
