/** Runs in every test file: the folders it made with temporaryFolder() go when it ends. */
import { afterAll } from 'vitest';
import { removeTemporaryFolders } from '../support/temp.js';

afterAll(removeTemporaryFolders);
