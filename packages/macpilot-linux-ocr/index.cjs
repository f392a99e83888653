'use strict';
// tesseract.js's API, and where its worker script is: the bundle's own copy, which loads the one core beside it.
const { join } = require('node:path');

module.exports = { ...require('./tesseract.cjs'), workerPath: join(__dirname, 'worker.cjs') };
