"""One form per user action. Input rules live in validators; views attach domain problems."""
