"""One form per user action. Input rules live in validators; domain problems are attached by views."""
