export async function runAcp(_opts: unknown): Promise<number> { return 1; }
