"""The worker side: fork-server, privilege drop, prompt assembly, one turn per fork."""
