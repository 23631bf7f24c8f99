: # demo placeholder
