// Temporary stubs so the serve command builds before list/run/export land;
// delete this file when cmd/dmaviz/list.go, run.go and export.go exist.
package main

import "io"

func runList(args []string, stdout, stderr io.Writer) int   { return 2 }
func runRun(args []string, stdout, stderr io.Writer) int    { return 2 }
func runExport(args []string, stdout, stderr io.Writer) int { return 2 }
