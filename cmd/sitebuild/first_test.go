package main

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// The loader finds a view whatever the order of the URL's keys, with or
// without autoplay (assets/web/first.js keys URLs the same way).
func TestViewKey(t *testing.T) {
	assert.Equal(t, "embed=1&scenario=etr", ViewKey("?scenario=etr&embed=1&autoplay=1"))
	assert.Equal(t, ViewKey("embed=1&scenario=etr"), ViewKey("scenario=etr&embed=1"))
	assert.Equal(t, "buffer=1MiB&scenario=etr", ViewKey("scenario=etr&buffer=1MiB"), "values decoded")
	assert.Equal(t, "", ViewKey(""))
}

// The pre-rendered panel's ids and label targets get the "first-" prefix,
// so they never shadow the live panel's.
func TestStaticIDs(t *testing.T) {
	got := string(staticIDs([]byte(`<label for="buffer">B</label><input id="buffer" data-id="x"/>`)))
	assert.Equal(t, `<label for="first-buffer">B</label><input id="first-buffer" data-id="x"/>`, got)
}
