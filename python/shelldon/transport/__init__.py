"""How the owner talks to the pet: the terminal first."""
