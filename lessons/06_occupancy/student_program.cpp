// Placeholder: replaced by the lesson 06 student program main.
int main() { return 1; }
