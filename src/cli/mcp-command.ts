export async function mcpCommand(_args: string[]): Promise<number> {
  return 1;
}
