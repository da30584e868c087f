//go:build !unix

package main

func nofile() string { return "unknown" }
