/** Why a session log line could not be read as an event. */
export class EventParseError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "EventParseError";
  }
}

/** The log was written by a newer KHAELOR: reading on would drop what this version cannot understand. */
export class NewerFormatError extends EventParseError {
  constructor(readonly version: number, readonly supported: number) {
    super(`written by a newer KHAELOR (format version ${version}, this one reads up to ${supported}); upgrade KHAELOR to resume this session`);
    this.name = "NewerFormatError";
  }
}
