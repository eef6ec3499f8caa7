"""What only the appliance needs at run time (the image's side of `shelldon doctor`)."""
