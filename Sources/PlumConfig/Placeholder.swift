enum ConfigPlaceholder {}
