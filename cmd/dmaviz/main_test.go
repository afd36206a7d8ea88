package main

import (
	"bytes"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestDispatchUnknownCommand(t *testing.T) {
	var out, errb bytes.Buffer
	code := dispatch([]string{"frobnicate"}, &out, &errb)
	require.Equal(t, 2, code, "exit code; stderr %q", errb.String())
	require.Contains(t, errb.String(), "unknown command", "stderr")
}
