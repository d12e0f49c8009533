"""What the people at the venue touch: score sheets, the scoring form, the hall's big screen."""
