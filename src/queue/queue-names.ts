/**
 * Names shared by producers, workers and `kishi queue status`: the Redis key prefix of every key
 * this project writes (BullMQ's `prefix`), and the default queue name.
 */
export const QUEUE_KEY_PREFIX = 'kishi';
export const DEFAULT_QUEUE_NAME = 'kishi';
