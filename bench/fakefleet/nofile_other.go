//go:build tools && !unix

package main

func nofile() string { return "unknown" }
