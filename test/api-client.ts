import { checkAgainstOpenApi } from './openapi-check';

/**
 * A thin HTTP client for /v1 in tests: real requests, the raw Response kept for header checks. Every answer is
 * checked against the OpenAPI document, so each HTTP test is also a contract test of the document.
 */
export type ApiResponse<T = any> = { status: number; body: T; headers: Headers };

export function apiClient(baseUrl: string, key?: string) {
  const request = async <T = any>(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<ApiResponse<T>> => {
    const res = await fetch(`${baseUrl}${path}`, {
      method,
      headers: {
        ...(key && { Authorization: `Bearer ${key}` }),
        ...(body !== undefined && { 'Content-Type': 'application/json' }),
        ...headers,
      },
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    });
    const text = await res.text();
    let parsed: unknown = text;
    if ((res.headers.get('content-type') ?? '').includes('json')) parsed = JSON.parse(text);
    checkAgainstOpenApi(method, path, res.status, res.headers, parsed);
    return { status: res.status, body: parsed as T, headers: res.headers };
  };
  return {
    request,
    get: <T = any>(path: string, headers?: Record<string, string>) => request<T>('GET', path, undefined, headers),
    post: <T = any>(path: string, body?: unknown, headers?: Record<string, string>) => request<T>('POST', path, body ?? {}, headers),
    delete: <T = any>(path: string) => request<T>('DELETE', path),
  };
}
