'use strict';
const assert = require('node:assert');
const { describe, it } = require('node:test');

describe('names', () => {
  it('joins', () => {
    assert.strictEqual(['a', 'b'].join('-'), 'a-b');
  });
});
